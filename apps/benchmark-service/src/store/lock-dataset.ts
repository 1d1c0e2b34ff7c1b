import type { ProjectContext } from '@cinetrace/contracts';
import type { EntityManager } from 'typeorm';
import { Dataset } from './dataset.entity';

/**
 * Reads a dataset of the project and, on PostgreSQL, locks its row until the transaction
 * ends, so "create a benchmark on it" and "delete it" cannot both pass their checks.
 * SQLite runs one write transaction at a time, which gives the same guarantee.
 */
export function lockDataset(tx: EntityManager, ctx: ProjectContext, id: string): Promise<Dataset | null> {
  const postgres = tx.connection.options.type === 'postgres';
  return tx.findOne(Dataset, { where: { id, projectId: ctx.projectId }, ...(postgres ? { lock: { mode: 'pessimistic_write' } } : {}) });
}
