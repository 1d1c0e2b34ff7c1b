import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { LessThan } from 'typeorm';
import { SecretActivity } from './secret-activity.entity';

export const insertSecretActivity = (manager: EntityManager, row: SecretActivity): Promise<void> => insertRows(manager, SecretActivity, row);

/** The secret's activity, newest first, `rows` of them from after the key `after`. */
export const listSecretActivity = (manager: EntityManager, orgId: string, secretId: string, after: string | undefined, rows: number): Promise<SecretActivity[]> =>
  manager.find(SecretActivity, {
    where: { orgId, secretId, ...(after !== undefined ? { id: LessThan(after) } : {}) },
    order: { id: 'DESC' },
    take: rows,
  });
