import type { TaskJob } from '@cinetrace/contracts';
import type { Run } from '../store/run.entity';
import type { Task } from '../store/task.entity';

/** A task as its executor receives it: everything it needs, nothing it must ask for. */
export function toTaskJob(run: Run, task: Task): TaskJob {
  return {
    taskId: task.id,
    runId: run.id,
    benchmarkId: run.benchmarkId,
    projectId: run.projectId,
    item: { id: task.itemId, index: task.itemIndex, input: task.input, expected: task.expected, metadata: task.metadata },
    target: run.plan.target as unknown as Record<string, unknown>,
    prompt: run.plan.prompt,
    scorers: run.plan.scorers as unknown as TaskJob['scorers'],
    timeoutMs: run.runner.timeoutMs,
    maxAttempts: run.runner.maxAttempts,
    attemptsBefore: task.attempts,
    traceId: task.traceId,
  };
}
