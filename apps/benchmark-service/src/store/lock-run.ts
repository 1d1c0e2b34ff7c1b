import type { EntityManager, FindOptionsWhere } from 'typeorm';
import { Run } from './run.entity';

/** Reads a run and, on PostgreSQL, locks it: its counters change only one transaction at a time. */
export function lockRun(tx: EntityManager, where: { id: string } | { activeBenchmarkId: string }): Promise<Run | null> {
  const postgres = tx.connection.options.type === 'postgres';
  return tx.findOne(Run, { where: where as FindOptionsWhere<Run>, ...(postgres ? { lock: { mode: 'pessimistic_write' } } : {}) });
}
