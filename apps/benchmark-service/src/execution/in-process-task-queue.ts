import type { StreamPublisher } from '@cinetrace/bus';
import { TASK_QUEUE, TaskEvent, TaskJob, TaskTopics, taskEventRecord } from '@cinetrace/contracts';
import { ATTEMPTS_USED_UP, finishedEvent, nextAttempt, startedEvent, TaskAttemptError, type TaskProcessor } from '@cinetrace/benchmark-tasks';
import { InProcessJobQueue, type JobCounts, type JobRun } from '@cinetrace/job-queue';
import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueSurvey, StoppedAttempt, TaskQueue } from './task-queue';

export interface InProcessTaskQueueOptions {
  /** First retry delay; doubled for each further attempt (as BullMQ's exponential backoff). */
  backoffMs?: number;
}

/**
 * The all-in-one executor: the same TaskProcessor the worker uses, with the same
 * attempts, backoff and per-attempt timeout, running in this process on an
 * InProcessJobQueue (job id = task id). It holds nothing durable: after a crash
 * benchmark-service hands the unfinished tasks over again.
 */
export class InProcessTaskQueue extends TaskQueue {
  readonly durable = false;
  private readonly logger = new Logger(InProcessTaskQueue.name);
  private readonly jobs: InProcessJobQueue<TaskJob>;
  /** Per task running, its attempt whose `started` is stored. */
  private readonly attempts = new Map<string, number>();
  private readonly stoppedByClose: StoppedAttempt[] = [];

  constructor(
    private readonly processor: Pick<TaskProcessor, 'attempt'> & Partial<Pick<TaskProcessor, 'recordGivenUp'>>,
    private readonly events: StreamPublisher,
    options: InProcessTaskQueueOptions = {},
  ) {
    super();
    this.jobs = new InProcessJobQueue<TaskJob>({
      name: TASK_QUEUE,
      label: 'Task',
      // The dispatcher's windows bound what runs: the queue takes every task it is handed.
      concurrency: Infinity,
      // Attempts that died with an earlier process count: a task that crashes it cannot run for ever.
      attempts: (job) => job.maxAttempts - nextAttempt(job, 0) + 1,
      backoffMs: options.backoffMs ?? 500,
      // Aborted attempts are handed over again at the next start: the shutdown does not wait for them.
      closeGraceMs: 0,
    });
    this.jobs.process((run) => this.execute(run));
  }

  enqueue(jobs: TaskJob[]): Promise<void> {
    return this.jobs.enqueue(jobs.map((job) => ({ id: job.taskId, data: job })));
  }

  async cancel(runId: string, taskIds: string[]): Promise<void> {
    const named = new Set(taskIds);
    this.jobs.cancelWhere(({ id, data }) => data.runId === runId && (named.size === 0 || named.has(id)));
  }

  /** Nothing is lost while the process lives (a task just finished is only waiting for its event to be applied); a crash is reclaimed at boot. */
  async survey(): Promise<QueueSurvey> {
    return { lost: [], stalled: false };
  }

  isReachable(): Promise<boolean> {
    return this.jobs.isReachable();
  }

  /** Aborts what is running: those tasks are handed over again when the process starts next. */
  async close(): Promise<void> {
    for (const [taskId, attempt] of this.attempts) this.stoppedByClose.push({ taskId, attempt });
    await this.jobs.close();
  }

  /** In BullMQ's terms for the metrics: attempts running are `active`, backoffs `delayed`, the rest `waiting` to start. */
  jobCounts(): Promise<JobCounts> {
    return this.jobs.counts();
  }

  override attemptsStoppedByClose(): StoppedAttempt[] {
    return [...this.stoppedByClose];
  }

  /** One attempt of a task; throws when another attempt is due (the queue retries it after its backoff). */
  private async execute({ data: job, attempt: run, signal }: JobRun<TaskJob>): Promise<void> {
    const attempt = nextAttempt(job, run - 1);
    if (attempt > job.maxAttempts) {
      await this.processor.recordGivenUp?.(job, attempt - 1, ATTEMPTS_USED_UP);
      const now = Date.now();
      await this.publish(finishedEvent(job, attempt - 1, { error: ATTEMPTS_USED_UP, startedAt: now, finishedAt: now }), signal);
      return;
    }
    // Stored before the attempt runs: the attempt count must survive the process.
    await this.publish(startedEvent(job, attempt, Date.now()), signal);
    if (signal.aborted) return;
    this.attempts.set(job.taskId, attempt);
    const startedAt = Date.now();
    try {
      const outcome = await this.processor.attempt(job, attempt, signal);
      // The trace is stored by trace-ingest while the result is: a trace that cannot be stored fails the attempt (retryably).
      await Promise.all([outcome.recorded, this.publish(finishedEvent(job, attempt, { outcome }), signal)]);
    } catch (err) {
      if (signal.aborted) return;
      const retryable = err instanceof TaskAttemptError ? err.retryable : true;
      if (retryable && attempt < job.maxAttempts) throw err;
      const error = err instanceof TaskAttemptError ? err.message : 'the attempt failed unexpectedly';
      await this.publish(finishedEvent(job, attempt, { error, startedAt, finishedAt: Date.now() }), signal);
    } finally {
      this.attempts.delete(job.taskId);
    }
  }

  /** An event the service could not store yet (its database blipped) is offered again until it can. */
  private async publish(event: TaskEvent, signal: AbortSignal): Promise<void> {
    for (let pause = 100; !signal.aborted; pause = Math.min(pause * 2, 5000)) {
      try {
        await this.events.publish(TaskTopics.TaskEvents, [taskEventRecord(event)]);
        return;
      } catch (err) {
        this.logger.warn(`Task event of ${event.taskId} not stored yet: ${(err as Error).message}`);
        await sleep(pause, undefined, { signal }).catch(() => undefined);
      }
    }
  }
}
