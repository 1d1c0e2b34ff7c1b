import { BUS_RETRY_AFTER_SECONDS } from '@cinetrace/bus';
import { DomainError, ErrorCode, TASK_QUEUE, TaskJob } from '@cinetrace/contracts';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { closeRedis } from './close-redis';
import { withDeadline } from './deadline';
import { describeError, RedisOutageLog, TaskQueueLogger } from './redis-outage-log';
import { RedisTarget, redisUrlOf, withRedisTls } from './redis-target';
import { RunStaging, taskJobOptions } from './run-staging';
import { taskCancelChannel } from './task-cancel-channel';

export interface BullTaskQueueOptions {
  /** BullMQ key prefix (default BullMQ's `bull`); workers must use the same one. */
  prefix?: string;
  /** First retry delay of a failed attempt; doubled for each further one. */
  backoffMs?: number;
  /** Longest one Redis round may take before the call fails as `unavailable`. */
  callTimeoutMs?: number;
  logger?: TaskQueueLogger;
}

/** Jobs per addBulk round: one MULTI each, small enough to finish well within the call deadline. */
const ENQUEUE_CHUNK = 500;
/** Jobs looked up at once when cancelling. */
const CANCEL_CHUNK = 100;
/** States a job can be dropped from without stopping anyone's work. */
const NOT_STARTED = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * benchmark-service's side of the BullMQ task queue: one job per task (job id = task id),
 * retried with exponential backoff up to the task's attempts. Every call fails within a
 * bound while Redis is down, as a DomainError `unavailable` (a 503 to the client).
 */
export class BullTaskQueue {
  private readonly redis: IORedis;
  private readonly queue: Queue<TaskJob>;
  private readonly staging: RunStaging;
  private readonly channel: string;
  private readonly backoffMs: number;
  private readonly callTimeoutMs: number;
  private readonly logger: TaskQueueLogger;

  constructor(redis: RedisTarget, options: BullTaskQueueOptions = {}) {
    this.logger = options.logger ?? new Logger(BullTaskQueue.name);
    this.backoffMs = options.backoffMs ?? 500;
    this.callTimeoutMs = options.callTimeoutMs ?? 5000;
    this.channel = taskCancelChannel(options.prefix);
    // Fail fast instead of queueing commands while disconnected: callers answer 503 and retry.
    this.redis = new IORedis(
      redisUrlOf(redis),
      withRedisTls(redis, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 3000,
        retryStrategy: (times: number) => Math.min(100 * times, 2000),
      }),
    );
    const outage = new RedisOutageLog(this.logger, 'Task queue');
    this.redis.on('ready', () => outage.ready());
    this.queue = new Queue<TaskJob>(TASK_QUEUE, { connection: this.redis, prefix: options.prefix });
    // Without a listener an 'error' event would crash the process.
    this.queue.on('error', (err) => outage.error(err));
    this.staging = new RunStaging(this.redis, this.queue);
  }

  /** Adds one job per task; a task whose job still exists (waiting, running or finished within the hour) is left as it is. */
  async enqueue(jobs: TaskJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += ENQUEUE_CHUNK) {
      const chunk = jobs.slice(i, i + ENQUEUE_CHUNK).map((job) => ({ name: 'task', data: job, opts: taskJobOptions(job, this.backoffMs) }));
      await this.call('enqueue tasks', () => this.queue.addBulk(chunk));
    }
  }

  /**
   * Stages a run's next tasks behind those staged (see RunStaging): as many start now as
   * the run has free slots; the others start as workers end the run's jobs.
   */
  async stage(runId: string, concurrency: number, jobs: TaskJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += ENQUEUE_CHUNK) {
      const chunk = jobs.slice(i, i + ENQUEUE_CHUNK);
      await this.call('stage tasks', () => this.staging.stage(runId, concurrency, chunk, this.backoffMs));
    }
  }

  /** Stages again, first in line and with their slots, tasks that were taken from the stage but never became jobs. */
  async restage(runId: string, concurrency: number, jobs: TaskJob[]): Promise<void> {
    if (jobs.length) await this.call('stage tasks', () => this.staging.restage(runId, concurrency, jobs, this.backoffMs));
  }

  /** Gives a run all its slots back (none of its jobs is unfinished, yet tasks wait staged) and starts staged tasks in them. */
  async restart(runId: string, concurrency: number): Promise<void> {
    await this.call('stage tasks', () => this.staging.reset(runId, concurrency));
  }

  /** Of the named tasks, how many have a job that has not finished (waiting, delayed or running). */
  async unfinished(taskIds: string[]): Promise<number> {
    if (taskIds.length === 0) return 0;
    const finishedOn = await this.call('look up jobs', async () => {
      const pipeline = this.redis.pipeline();
      for (const taskId of taskIds) pipeline.hmget(this.queue.toKey(taskId), 'timestamp', 'finishedOn');
      const results = (await pipeline.exec()) ?? [];
      return results.map(([err, fields]) => {
        if (err) throw err;
        return fields as Array<string | null>;
      });
    });
    return finishedOn.filter(([added, finished]) => added !== null && finished === null).length;
  }

  /** How many of the run's tasks are staged (handed over, not yet jobs). */
  stagedCount(runId: string): Promise<number> {
    return this.call('count staged tasks', () => this.staging.stagedCount(runId));
  }

  /** Ids of the run's staged tasks (handed over, not yet jobs). */
  stagedTaskIds(runId: string): Promise<string[]> {
    return this.call('look up staged tasks', () => this.staging.stagedTaskIds(runId));
  }

  /**
   * Drops the run's stage and the named tasks that have not started, then tells every worker to abort the
   * run's running ones. Tasks already running or gone are left to that message.
   */
  async cancel(runId: string, taskIds: string[]): Promise<void> {
    await this.call('cancel tasks', () => this.staging.drop(runId));
    for (let i = 0; i < taskIds.length; i += CANCEL_CHUNK) {
      const chunk = taskIds.slice(i, i + CANCEL_CHUNK);
      await this.call('cancel tasks', () => Promise.all(chunk.map((taskId) => this.removeIfNotStarted(taskId))));
    }
    await this.call('cancel tasks', () => this.redis.publish(this.channel, runId));
  }

  /**
   * Of the named tasks, those without a job: never added, or lost with Redis's data (a
   * finished job is kept for an hour, so a task whose result is still on its way has one).
   */
  async missing(taskIds: string[]): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const counts = await this.call('look up jobs', async () => {
      const pipeline = this.redis.pipeline();
      for (const taskId of taskIds) pipeline.exists(this.queue.toKey(taskId));
      const results = (await pipeline.exec()) ?? [];
      return results.map(([err, count]) => {
        if (err) throw err;
        return count as number;
      });
    });
    return taskIds.filter((_, i) => counts[i] === 0);
  }

  /** For readiness: whether Redis answers a ping within a second. */
  async isReachable(): Promise<boolean> {
    try {
      await withDeadline(this.ping(), 1000, () => new Error('ping timed out'));
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    await closeRedis(this.redis);
  }

  private async removeIfNotStarted(taskId: string): Promise<void> {
    const state = await this.queue.getJobState(taskId);
    // A job that became active since is locked: remove refuses it (0), and the published message stops it.
    if (NOT_STARTED.has(state)) await this.queue.remove(taskId);
  }

  private async ping(): Promise<void> {
    await this.queue.waitUntilReady();
    await this.redis.ping();
  }

  /** One Redis round within the deadline (the queue's first use also waits for the connection). */
  private async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    const unavailable = (cause: string) => {
      this.logger.warn(`Could not ${what}: ${cause}`);
      return new DomainError(ErrorCode.Unavailable, 'The task queue is unreachable; retry shortly', undefined, BUS_RETRY_AFTER_SECONDS);
    };
    // The caller has its answer once the deadline passed: work must not start after it.
    let expired = false;
    const round = this.queue.waitUntilReady().then(() => {
      if (expired) throw new Error('deadline passed');
      return work();
    });
    try {
      return await withDeadline(round, this.callTimeoutMs, () => {
        expired = true;
        return new Error(`no answer from Redis within ${this.callTimeoutMs} ms`);
      });
    } catch (err) {
      throw unavailable(describeError(err));
    }
  }
}
