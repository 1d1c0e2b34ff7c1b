import type { RunAnnotationsView, RunStartedView, RunSummaryView, RunView, TaskView } from '@cinetrace/contracts';
import { toIso } from '@cinetrace/persistence';
import type { Run } from '../store/run.entity';
import type { Task } from '../store/task.entity';

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

export function toRunCounts(run: Run): RunView['counts'] {
  const { total, pending, running, completed, failed, cancelled } = run;
  return { total, pending, running, completed, failed, cancelled };
}

/** Every scorer of the run appears, with null figures until one of its scores is in. */
export function toRunScores(run: Run): RunView['scores'] {
  return Object.fromEntries(
    run.plan.scorers.map(({ name }) => {
      const totals = run.scoreTotals[name];
      const scored = totals?.scored ?? 0;
      return [name, { mean: scored ? totals.sum / scored : null, passRate: scored ? totals.passed / scored : null }];
    }),
  );
}

/** The prompt version the run rendered, and the release it was reached through, if any. */
function toRunPrompt(run: Run): RunView['prompt'] {
  if (run.promptId === null || run.promptVersion === null) return null;
  return { id: run.promptId, version: run.promptVersion, release: run.plan.target.promptRelease ?? null };
}

export function toRunView(run: Run): RunView {
  return {
    id: run.id,
    benchmarkId: run.benchmarkId,
    status: run.status,
    experiment: run.experiment,
    runner: run.runner,
    datasetVersion: run.datasetVersion,
    prompt: toRunPrompt(run),
    counts: toRunCounts(run),
    scores: toRunScores(run),
    costUsd: run.costUsd,
    createdAt: toIso(run.createdAt),
    startedAt: isoOrNull(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
  };
}

export const toRunStartedView = (run: Run): RunStartedView => ({
  id: run.id,
  benchmarkId: run.benchmarkId,
  status: 'queued',
  taskCount: run.total,
  createdAt: toIso(run.createdAt),
});

export const toRunSummaryView = (run: Run, annotations: RunAnnotationsView | null): RunSummaryView => ({ id: run.id, status: run.status, counts: toRunCounts(run), annotations });

export function toTaskView(task: Task): TaskView {
  return {
    id: task.id,
    runId: task.runId,
    itemId: task.itemId,
    itemIndex: task.itemIndex,
    status: task.status,
    attempts: task.attempts,
    output: task.output ?? null,
    scores: task.scores,
    error: task.error,
    usage: task.usage ?? null,
    costUsd: task.costUsd,
    // A task is recorded as a trace only once it has run.
    traceId: task.attempts > 0 ? task.traceId : null,
    startedAt: isoOrNull(task.startedAt),
    finishedAt: isoOrNull(task.finishedAt),
    durationMs: task.durationMs,
  };
}
