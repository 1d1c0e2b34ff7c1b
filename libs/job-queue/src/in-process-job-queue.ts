import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { FairLimit } from './fair-limit';
import { attemptsOf, JobCounts, JobHandler, JobQueue, JobQueueSettings, JobToQueue, settledWithin } from './job-queue';

interface HeldJob<T> {
  id: string;
  data: T;
  controller: AbortController;
  state: keyof JobCounts;
}

/**
 * The all-in-one mode's queue: jobs held in this process, run `concurrency` at a time through
 * a FairLimit, each retried in place with exponential backoff. Nothing survives the process:
 * the store of whoever enqueued says what to hand over again at the next boot.
 */
export class InProcessJobQueue<T> extends JobQueue<T> {
  private readonly logger: Logger;
  private readonly held = new Map<string, HeldJob<T>>();
  private readonly running = new Set<Promise<void>>();
  private readonly slots: FairLimit;
  private handler?: JobHandler<T>;
  /** Jobs enqueued before process() wait for it here. */
  private readonly unstarted: HeldJob<T>[] = [];
  private closed = false;

  constructor(private readonly settings: JobQueueSettings<T>) {
    super();
    this.logger = new Logger(`JobQueue ${settings.name}`);
    this.slots = new FairLimit(settings.concurrency, settings.perGroup ?? settings.concurrency);
  }

  async enqueue(jobs: JobToQueue<T>[]): Promise<void> {
    for (const { id, data } of jobs) {
      if (this.closed || this.held.has(id)) continue;
      const job: HeldJob<T> = { id, data, controller: new AbortController(), state: 'waiting' };
      this.held.set(id, job);
      if (this.handler) this.start(this.handler, job);
      else this.unstarted.push(job);
    }
  }

  process(handler: JobHandler<T>): void {
    this.handler = handler;
    for (const job of this.unstarted.splice(0)) this.start(handler, job);
  }

  async cancel(ids: string[]): Promise<void> {
    const named = new Set(ids);
    this.cancelWhere((job) => named.has(job.id));
  }

  /** Cancels the jobs held (waiting or running) that `match` picks. */
  cancelWhere(match: (job: JobToQueue<T>) => boolean): void {
    for (const job of this.held.values()) if (match(job)) job.controller.abort();
  }

  async counts(): Promise<JobCounts> {
    const counts: JobCounts = { waiting: 0, active: 0, delayed: 0 };
    for (const job of this.held.values()) counts[job.state] += 1;
    return counts;
  }

  async isReachable(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.held.values()) job.controller.abort();
    await settledWithin(Promise.allSettled([...this.running]), this.settings.closeGraceMs);
  }

  private start(handler: JobHandler<T>, job: HeldJob<T>): void {
    const group = this.settings.groupOf?.(job.data) ?? '';
    const run = this.slots
      .run(group, () => this.attempts(handler, job))
      .finally(() => {
        this.running.delete(run);
        this.held.delete(job.id);
      });
    this.running.add(run);
  }

  private async attempts(handler: JobHandler<T>, job: HeldJob<T>): Promise<void> {
    const max = attemptsOf(this.settings, job.data);
    const { signal } = job.controller;
    for (let attempt = 1; attempt <= max && !signal.aborted; attempt++) {
      job.state = 'active';
      try {
        return await handler({ id: job.id, data: job.data, attempt, lastAttempt: attempt === max, signal });
      } catch (err) {
        if (signal.aborted) return;
        this.logger.warn(`${this.settings.label} ${job.id} failed (attempt ${attempt} of ${max}): ${(err as Error).message}`);
        if (attempt === max) return;
        job.state = 'delayed';
        await sleep(this.settings.backoffMs * 2 ** (attempt - 1), undefined, { signal }).catch(() => undefined);
      }
    }
  }
}
