import type { TaskFinishedEvent, TaskJob, TaskStartedEvent } from '@cinetrace/contracts';
import type { AttemptOutcome } from './task-processor';
import { userFacing } from './task-attempt-error';

/** An attempt began: the task is `running` (`attempt` counts from 1). */
export function startedEvent(job: TaskJob, attempt: number, at: number): TaskStartedEvent {
  return { kind: 'started', taskId: job.taskId, runId: job.runId, projectId: job.projectId, attempt, at };
}

/** The task ended after `attempts` attempts: completed with the last one's outcome, or failed with its error. */
export function finishedEvent(
  job: TaskJob,
  attempts: number,
  result: { outcome: AttemptOutcome } | { error: string; startedAt: number; finishedAt: number },
): TaskFinishedEvent {
  const task = { kind: 'finished' as const, taskId: job.taskId, runId: job.runId, projectId: job.projectId, attempts, traceId: job.traceId };
  if ('outcome' in result) {
    const { output, scores, usage, costUsd, startedAt, finishedAt } = result.outcome;
    return { ...task, status: 'completed', output, scores, error: null, usage, costUsd, startedAt, finishedAt };
  }
  return {
    ...task,
    status: 'failed',
    output: null,
    scores: [],
    // Bounded here too: the caller may pass an error of its own (a lost worker, a stalled job).
    error: userFacing(result.error),
    usage: null,
    costUsd: null,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
  };
}
