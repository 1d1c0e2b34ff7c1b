import type { EntityManager } from 'typeorm';
import { followLastRun } from '../store/benchmarks.queries';
import { lockRun, updateRunProgress } from '../store/runs.queries';
import { cancelOpenTasks, openHandedOverIds } from '../store/tasks.queries';
import { cancelRun } from './run-progress';

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
  const handedOver = await openHandedOverIds(tx, run);
  await cancelOpenTasks(tx, run.id, now);
  const tasksCancelled = run.pending + run.running;
  cancelRun(run, now);
  await updateRunProgress(tx, run);
  await followLastRun(tx, benchmarkId, run.id, 'cancelled', now);
  return { runId: run.id, handedOver, tasksCancelled };
}
