import type { EntityManager, FindOneOptions } from 'typeorm';

/**
 * A find option that, on PostgreSQL, locks the rows read until the caller's transaction
 * ends; SQLite runs one write transaction at a time, which gives the same guarantee.
 */
export function forUpdate(tx: EntityManager): Pick<FindOneOptions, 'lock'> {
  return tx.connection.options.type === 'postgres' ? { lock: { mode: 'pessimistic_write' } } : {};
}

/**
 * Transaction-scoped PostgreSQL advisory locks, for turns that no row stands for: the
 * lock ends with the caller's transaction. SQLite writes one transaction at a time.
 */
async function advisoryLock(tx: EntityManager, name: string): Promise<void> {
  if (tx.connection.options.type === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
}

/** The starts of one project take turns, so two cannot both take its last slot. */
export const lockProjectStarts = (tx: EntityManager, projectId: string): Promise<void> => advisoryLock(tx, `runs:${projectId}`);

/** Replicas refill (and recover) a run in turns (in one process, TaskDispatcher's own turns do). */
export const lockRunFills = (tx: EntityManager, runId: string): Promise<void> => advisoryLock(tx, `fill:${runId}`);
