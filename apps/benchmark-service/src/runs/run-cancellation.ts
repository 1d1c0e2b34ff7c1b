import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { In, IsNull, Not } from 'typeorm';
import { Benchmark } from '../store/benchmark.entity';
import { lockRun } from '../store/lock-run';
import { cancelRun } from './run-progress';
import { Task } from '../store/task.entity';
import { Run } from '../store/run.entity';

/** What the executors must still be told to stop: the run's tasks that were handed over. */
export interface CancelledRun {
  runId: string;
  handedOver: string[];
  /** Tasks the cancellation ended (pending or running until then). */
  tasksCancelled: number;
}

/**
 * Cancels the benchmark's active run inside the caller's transaction: its pending and
 * running tasks become `cancelled` (results that still arrive for them are ignored).
 */
export async function cancelActiveRun(tx: EntityManager, benchmarkId: string, now: number): Promise<CancelledRun | null> {
  const run = await lockRun(tx, { activeBenchmarkId: benchmarkId });
  if (!run) return null;
  const handedOver = await tx.find(Task, {
    select: { id: true },
    where: { runId: run.id, status: In(['pending', 'running']), dispatchedAt: Not(IsNull()) },
  });
  await tx
    .createQueryBuilder()
    .update(Task)
    .set({ status: 'cancelled', finishedAt: now, durationMs: () => `CASE WHEN started_at IS NULL THEN NULL ELSE ${Number(now)} - started_at END` })
    .where('run_id = :runId AND status IN (:...open)', { runId: run.id, open: ['pending', 'running'] })
    .execute();
  const tasksCancelled = run.pending + run.running;
  cancelRun(run, now);
  await tx.update(Run, { id: run.id }, runCounters(run));
  await tx.update(Benchmark, { id: benchmarkId, lastRunId: run.id }, { status: 'cancelled', updatedAt: now });
  return { runId: run.id, handedOver: handedOver.map((task) => task.id), tasksCancelled };
}

/** The columns of a run that task events and cancellation move. */
export function runCounters(run: Run): QueryDeepPartialEntity<Run> {
  const counters: Partial<Run> = {
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
  return counters as QueryDeepPartialEntity<Run>;
}
