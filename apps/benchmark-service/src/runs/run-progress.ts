import type { TaskEvent, TaskStatus } from '@cinetrace/contracts';
import type { Run } from '../store/run.entity';
import type { Task } from '../store/task.entity';

type CountedStatus = Extract<TaskStatus, 'pending' | 'running' | 'completed' | 'failed' | 'cancelled'>;

const isOpen = (status: TaskStatus) => status === 'pending' || status === 'running';

function move(run: Run, task: Task, to: CountedStatus): void {
  run[task.status as CountedStatus] -= 1;
  run[to] += 1;
  task.status = to;
}

/**
 * Applies one task event to the task and its run's counters, in memory. A task that has
 * ended (or was cancelled) takes nothing more: a re-run after a worker crash, or an
 * event delivered twice, cannot write a result a second time. Returns whether anything changed.
 */
export function applyTaskEvent(run: Run, task: Task, event: TaskEvent): boolean {
  if (!isOpen(task.status)) return false;
  if (event.kind === 'started') {
    if (task.status === 'running' && task.attempts >= event.attempt) return false;
    if (task.status === 'pending') move(run, task, 'running');
    task.attempts = Math.max(task.attempts, event.attempt);
    task.startedAt ??= event.at;
    run.startedAt ??= event.at;
    if (run.status === 'queued') run.status = 'running';
    return true;
  }
  move(run, task, event.status);
  task.attempts = Math.max(task.attempts, event.attempts);
  task.output = event.output ?? undefined;
  task.scores = event.scores;
  task.error = event.error;
  task.usage = event.usage ?? undefined;
  task.costUsd = event.costUsd;
  task.startedAt ??= event.startedAt;
  task.finishedAt = event.finishedAt;
  task.durationMs = event.finishedAt - task.startedAt;
  run.startedAt ??= event.startedAt;
  if (run.status === 'queued') run.status = 'running';
  if (event.costUsd !== null) run.costUsd = (run.costUsd ?? 0) + event.costUsd;
  for (const score of event.scores) {
    if (score.error !== null || score.score === null) continue;
    const totals = (run.scoreTotals[score.scorer] ??= { sum: 0, scored: 0, passed: 0 });
    totals.sum += score.score;
    totals.scored += 1;
    if (score.passed) totals.passed += 1;
  }
  return true;
}

/** Ends an active run whose tasks have all ended: `failed` if any task failed, else `completed`. */
export function settleRun(run: Run, now: number): boolean {
  if (run.activeBenchmarkId === null || run.pending + run.running > 0) return false;
  run.status = run.failed > 0 ? 'failed' : 'completed';
  run.finishedAt = now;
  run.activeBenchmarkId = null;
  return true;
}

/** Cancels an active run's counters: every task not yet ended counts as `cancelled`. */
export function cancelRun(run: Run, now: number): void {
  run.cancelled += run.pending + run.running;
  run.pending = 0;
  run.running = 0;
  run.status = 'cancelled';
  run.finishedAt = now;
  run.activeBenchmarkId = null;
}
