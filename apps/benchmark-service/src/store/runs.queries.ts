import { insertRows } from '@cinetrace/persistence';
import type { EntityManager, FindOptionsWhere } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { In, IsNull, LessThan, MoreThan, Not } from 'typeorm';
import { forUpdate } from './row-locks';
import { Run } from './run.entity';

export const insertRun = (tx: EntityManager, run: Run): Promise<void> => insertRows(tx, Run, run);

export const findRun = (manager: EntityManager, id: string): Promise<Run | null> => manager.findOneBy(Run, { id });

/** Reads a run and, on PostgreSQL, locks it: its counters change only one transaction at a time. */
export const lockRun = (tx: EntityManager, where: { id: string } | { activeBenchmarkId: string }): Promise<Run | null> =>
  tx.findOne(Run, { where: where as FindOptionsWhere<Run>, ...forUpdate(tx) });

/** The benchmark's run that is queued or running, if any. */
export const findActiveRunOf = (tx: EntityManager, benchmarkId: string): Promise<Run | null> => tx.findOneBy(Run, { activeBenchmarkId: benchmarkId });

export const findRunOfBenchmark = (manager: EntityManager, projectId: string, benchmarkId: string, id: string): Promise<Run | null> =>
  manager.findOneBy(Run, { id, benchmarkId, projectId });

export const findRunsById = (manager: EntityManager, ids: string[]): Promise<Run[]> => (ids.length ? manager.findBy(Run, { id: In(ids) }) : Promise.resolve([]));

/** The benchmark's runs, newest first, `rows` of them from after the key `after`. */
export const listRunsOfBenchmark = (manager: EntityManager, projectId: string, benchmarkId: string, after: string | undefined, rows: number): Promise<Run[]> =>
  manager.find(Run, {
    where: { benchmarkId, projectId, ...(after !== undefined ? { id: LessThan(after) } : {}) },
    order: { id: 'DESC' },
    take: rows,
  });

/** The completed runs of the benchmark that rendered this prompt version, newest first. */
export const completedRunsOfPrompt = (
  manager: EntityManager,
  where: Pick<Run, 'projectId' | 'benchmarkId'> & { promptId: string; promptVersion: number },
  limit: number,
): Promise<Run[]> => manager.find(Run, { where: { ...where, status: 'completed' }, order: { id: 'DESC' }, take: limit });

/** Every run that is queued or running. */
export const findActiveRuns = (manager: EntityManager): Promise<Run[]> => manager.find(Run, { where: { activeBenchmarkId: Not(IsNull()) } });

export async function activeRunIds(manager: EntityManager): Promise<string[]> {
  const runs = await manager.find(Run, { select: { id: true }, where: { activeBenchmarkId: Not(IsNull()) } });
  return runs.map((run) => run.id);
}

export const countActiveRunsOfProject = (tx: EntityManager, projectId: string): Promise<number> => tx.count(Run, { where: { projectId, activeBenchmarkId: Not(IsNull()) } });

/** When the project's runs created after `since` were created, oldest first. */
export async function runStartsSince(tx: EntityManager, projectId: string, since: number): Promise<number[]> {
  const runs = await tx.find(Run, { select: { createdAt: true }, where: { projectId, createdAt: MoreThan(since) }, order: { createdAt: 'ASC' } });
  return runs.map((run) => run.createdAt);
}

/** Writes the columns of a run that task events and cancellation move. */
export async function updateRunProgress(tx: EntityManager, run: Run): Promise<void> {
  const progress: Partial<Run> = {
    status: run.status,
    activeBenchmarkId: run.activeBenchmarkId,
    pending: run.pending,
    running: run.running,
    completed: run.completed,
    failed: run.failed,
    cancelled: run.cancelled,
    scoreTotals: run.scoreTotals,
    costUsd: run.costUsd,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
  };
  // TypeORM's deep-partial type cannot express the JSON column; the values are the row's own.
  await tx.update(Run, { id: run.id }, progress as QueryDeepPartialEntity<Run>);
}

/** The run's open tasks all wait again, none handed over: `pending` of them, none running. */
export async function resetRunWindow(tx: EntityManager, id: string, pending: number): Promise<void> {
  await tx.update(Run, { id }, { pending, running: 0, handedOverThrough: -1 });
}

/** The run has handed its tasks over through this item index (the mark only moves forward). */
export async function markHandedOverThrough(tx: EntityManager, id: string, itemIndex: number): Promise<void> {
  await tx.update(Run, { id, handedOverThrough: LessThan(itemIndex) }, { handedOverThrough: itemIndex });
}
