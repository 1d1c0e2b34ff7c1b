import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { LessThan } from 'typeorm';
import { PromptVersion } from './prompt-version.entity';

export const insertPromptVersion = (tx: EntityManager, version: PromptVersion): Promise<void> => insertRows(tx, PromptVersion, version);

export const findPromptVersion = (manager: EntityManager, promptId: string, version: number): Promise<PromptVersion | null> =>
  manager.findOneBy(PromptVersion, { promptId, version });

export const promptVersionExists = (manager: EntityManager, promptId: string, version: number): Promise<boolean> => manager.existsBy(PromptVersion, { promptId, version });

/** The prompt's versions, newest first, `rows` of them from before the version `after`. */
export const listPromptVersions = (manager: EntityManager, promptId: string, after: number | undefined, rows: number): Promise<PromptVersion[]> =>
  manager.find(PromptVersion, { where: { promptId, ...(after !== undefined ? { version: LessThan(after) } : {}) }, order: { version: 'DESC' }, take: rows });
