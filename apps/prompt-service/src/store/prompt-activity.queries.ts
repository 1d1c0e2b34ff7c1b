import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { LessThan } from 'typeorm';
import { PromptActivity } from './prompt-activity.entity';

export const insertPromptActivity = (tx: EntityManager, row: PromptActivity): Promise<void> => insertRows(tx, PromptActivity, row);

/** The prompt's activity, newest first, `rows` of them from after the key `after`. */
export const listPromptActivity = (manager: EntityManager, promptId: string, after: string | undefined, rows: number): Promise<PromptActivity[]> =>
  manager.find(PromptActivity, { where: { promptId, ...(after !== undefined ? { id: LessThan(after) } : {}) }, order: { id: 'DESC' }, take: rows });
