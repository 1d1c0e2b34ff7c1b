import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { LessThan } from 'typeorm';
import { Secret } from './secret.entity';

export const insertSecret = (manager: EntityManager, secret: Secret): Promise<void> => insertRows(manager, Secret, secret);

export const findSecret = (manager: EntityManager, orgId: string, id: string): Promise<Secret | null> => manager.findOneBy(Secret, { id, orgId });

export const findSecretByName = (manager: EntityManager, orgId: string, name: string): Promise<Secret | null> => manager.findOneBy(Secret, { orgId, name });

/** The organization's secrets, newest first, `rows` of them from after the key `after`. */
export const listSecrets = (manager: EntityManager, orgId: string, filters: { name?: string }, after: string | undefined, rows: number): Promise<Secret[]> =>
  manager.find(Secret, {
    where: { orgId, ...(filters.name !== undefined ? { name: filters.name } : {}), ...(after !== undefined ? { id: LessThan(after) } : {}) },
    order: { id: 'DESC' },
    take: rows,
  });

/** A new value (encrypted) and allowed hosts. */
export async function updateSecretValue(
  manager: EntityManager,
  id: string,
  change: Pick<Secret, 'keyId' | 'iv' | 'tag' | 'ciphertext' | 'allowedHosts' | 'updatedAt'>,
): Promise<void> {
  await manager.update(Secret, { id }, change);
}

/** False when there was no such secret (deleted meanwhile). */
export async function deleteSecret(manager: EntityManager, orgId: string, id: string): Promise<boolean> {
  const deleted = await manager.delete(Secret, { id, orgId });
  return Boolean(deleted.affected);
}
