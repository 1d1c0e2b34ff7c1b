import type { TaskFinishedEvent, TaskJob, TaskStartedEvent } from '@cinetrace/contracts';
import type { AttemptOutcome } from './task-processor';
import { userFacing } from './task-attempt-error';

/**
 * Why a task failed without another attempt being run: its attempts so far all died with
 * the process running them (a crash, a kill), and none is left.
 */
export const ATTEMPTS_USED_UP = 'the process running this task stopped before it finished, and no attempt is left';

/** The number of the attempt about to start, counting those the service recorded before the task was handed over. */
export function nextAttempt(job: TaskJob, attemptsHere: number): number {
  const before = Number.isSafeInteger(job.attemptsBefore) && job.attemptsBefore! > 0 ? job.attemptsBefore! : 0;
  return before + attemptsHere + 1;
}

/** An attempt began: the task is `running` (`attempt` counts from 1). */
export function startedEvent(job: TaskJob, attempt: number, at: number): TaskStartedEvent {
  return { kind: 'started', taskId: job.taskId, runId: job.runId, projectId: job.projectId, attempt, at };
}

/** The task ended after `attempts` attempts: completed with the last one's outcome, or failed with its error. */
export function finishedEvent(job: TaskJob, attempts: number, result: { outcome: AttemptOutcome } | { error: string; startedAt: number; finishedAt: number }): TaskFinishedEvent {
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
