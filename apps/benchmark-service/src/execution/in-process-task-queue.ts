import type { StreamPublisher } from '@cinetrace/bus';
import { TaskEvent, TaskJob, TaskTopics, taskEventRecord } from '@cinetrace/contracts';
import { ATTEMPTS_USED_UP, finishedEvent, nextAttempt, startedEvent, TaskAttemptError, type TaskProcessor } from '@cinetrace/benchmark-tasks';
import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueSurvey, StoppedAttempt, TaskQueue } from './task-queue';

export interface InProcessTaskQueueOptions {
  /** First retry delay; doubled for each further attempt (as BullMQ's exponential backoff). */
  backoffMs?: number;
}

interface ActiveTask {
  runId: string;
  controller: AbortController;
  /** The attempt running, once its `started` is stored. */
  attempt?: number;
  /** Between attempts, waiting out the backoff (BullMQ's `delayed`). */
  delayed?: boolean;
}

/**
 * The all-in-one executor: the same TaskProcessor the worker uses, with the same
 * attempts, backoff and per-attempt timeout, running in this process. It holds nothing
 * durable: after a crash benchmark-service hands the unfinished tasks over again.
 */
export class InProcessTaskQueue extends TaskQueue {
  readonly durable = false;
  private readonly logger = new Logger(InProcessTaskQueue.name);
  private readonly active = new Map<string, ActiveTask>();
  private readonly backoffMs: number;
  private closed = false;
  private readonly stoppedByClose: StoppedAttempt[] = [];

  constructor(
    private readonly processor: Pick<TaskProcessor, 'attempt'> & Partial<Pick<TaskProcessor, 'recordGivenUp'>>,
    private readonly events: StreamPublisher,
    options: InProcessTaskQueueOptions = {},
  ) {
    super();
    this.backoffMs = options.backoffMs ?? 500;
  }

  async enqueue(jobs: TaskJob[]): Promise<void> {
    for (const job of jobs) {
      if (this.closed || this.active.has(job.taskId)) continue;
      const task: ActiveTask = { runId: job.runId, controller: new AbortController() };
      this.active.set(job.taskId, task);
      void this.execute(job, task)
        .catch((err) => this.logger.error(`Task ${job.taskId} stopped: ${(err as Error).message}`))
        .finally(() => this.active.delete(job.taskId));
    }
  }

  async cancel(runId: string, taskIds: string[]): Promise<void> {
    const named = new Set(taskIds);
    for (const [taskId, task] of this.active) {
      if (task.runId === runId && (named.size === 0 || named.has(taskId))) task.controller.abort();
    }
  }

  /** Nothing is lost while the process lives (a task just finished is only waiting for its event to be applied); a crash is reclaimed at boot. */
  async survey(): Promise<QueueSurvey> {
    return { lost: [], stalled: false };
  }

  async isReachable(): Promise<boolean> {
    return !this.closed;
  }

  /** Aborts what is running: those tasks are handed over again when the process starts next. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [taskId, task] of this.active) {
      if (task.attempt !== undefined) this.stoppedByClose.push({ taskId, attempt: task.attempt });
      task.controller.abort();
    }
  }

  /** In BullMQ's terms for the metrics: attempts running are `active`, backoffs `delayed`, the rest `waiting` to start. */
  jobCounts(): { waiting: number; active: number; delayed: number } {
    const counts = { waiting: 0, active: 0, delayed: 0 };
    for (const task of this.active.values()) {
      if (task.delayed) counts.delayed += 1;
      else if (task.attempt !== undefined) counts.active += 1;
      else counts.waiting += 1;
    }
    return counts;
  }

  override attemptsStoppedByClose(): StoppedAttempt[] {
    return [...this.stoppedByClose];
  }

  private async execute(job: TaskJob, task: ActiveTask): Promise<void> {
    const signal = task.controller.signal;
    // Attempts that died with an earlier process count: a task that crashes it cannot run for ever.
    for (let attempt = nextAttempt(job, 0); !signal.aborted; attempt += 1) {
      if (attempt > job.maxAttempts) {
        await this.processor.recordGivenUp?.(job, attempt - 1, ATTEMPTS_USED_UP);
        const now = Date.now();
        await this.publish(finishedEvent(job, attempt - 1, { error: ATTEMPTS_USED_UP, startedAt: now, finishedAt: now }), signal);
        return;
      }
      // Stored before the attempt runs: the attempt count must survive the process.
      await this.publish(startedEvent(job, attempt, Date.now()), signal);
      if (signal.aborted) return;
      task.attempt = attempt;
      const startedAt = Date.now();
      try {
        const outcome = await this.processor.attempt(job, attempt, signal);
        // The trace is stored by trace-ingest while the result is: a trace that cannot be stored fails the attempt (retryably).
        await Promise.all([outcome.recorded, this.publish(finishedEvent(job, attempt, { outcome }), signal)]);
        return;
      } catch (err) {
        if (signal.aborted) return;
        const retryable = err instanceof TaskAttemptError ? err.retryable : true;
        if (!retryable || attempt >= job.maxAttempts) {
          const error = err instanceof TaskAttemptError ? err.message : 'the attempt failed unexpectedly';
          await this.publish(finishedEvent(job, attempt, { error, startedAt, finishedAt: Date.now() }), signal);
          return;
        }
        task.delayed = true;
        await sleep(this.backoffMs * 2 ** (attempt - 1), undefined, { signal }).catch(() => undefined);
        task.delayed = false;
      }
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
