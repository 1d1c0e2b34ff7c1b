import { Logger } from '@nestjs/common';
import { type Job, Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import type { ConnectionOptions } from 'node:tls';
import { FairLimit } from './fair-limit';
import { attemptsOf, JobCounts, JobHandler, JobQueue, JobQueueSettings, JobToQueue, settledWithin } from './job-queue';

export interface BullJobQueueSettings<T> extends JobQueueSettings<T> {
  /** Redis, as redisConnection (@cinetrace/config) makes it from REDIS_URL and REDIS_TLS_CA_FILE. */
  redis: { url: string; tls?: ConnectionOptions };
  /** BullMQ's key prefix (QUEUE_PREFIX). */
  prefix: string;
  /** The jobs' BullMQ name (on the wire, as the queue's). */
  jobName: string;
  /** A job's lock without renewal: a dead worker's job is taken up again about two of these after it died. */
  lockMs: number;
}

/** BullMQ's lowest priority (the largest number it takes). */
const LOWEST_PRIORITY = 2_097_151;
/** A group's line of queued ids is forgotten a day after its last job was added (a job lost with Redis's data leaves no lasting penalty). */
const LINE_TTL_SECONDS = 24 * 3600;
/** States a job can be dropped from without stopping anyone's work. */
const NOT_STARTED = new Set(['waiting', 'delayed', 'prioritized']);

/**
 * The distributed mode's queue: BullMQ in Redis, one job per id (BullMQ's job id, so a job
 * handed over again while it waits adds nothing), retried with exponential backoff, drained
 * by this process `concurrency` at a time. A job in hand when the process dies is taken up
 * again once BullMQ sees it stalled: its lock (`lockMs`) lapsed and was not renewed.
 *
 * Fair between groups: a job's BullMQ priority is its rank in its group's line (the group's
 * n-th queued job gets priority n; a set per group in Redis counts them), so the workers take
 * every group's first job before any group's second. The worker holds twice `concurrency`
 * jobs and runs them through a FairLimit: at most `perGroup` of one group's at once.
 */
export class BullJobQueue<T> extends JobQueue<T> {
  private readonly logger: Logger;
  private readonly producer: IORedis;
  private readonly queue: Queue<T>;
  private readonly slots: FairLimit;
  private readonly running = new Map<string, AbortController>();
  private worker?: Worker<T>;
  private workerConnection?: IORedis;

  constructor(private readonly settings: BullJobQueueSettings<T>) {
    super();
    this.logger = new Logger(`JobQueue ${settings.name}`);
    this.slots = new FairLimit(settings.concurrency, settings.perGroup ?? settings.concurrency);
    // Fail fast while Redis is away (the caller's sweep enqueues later) rather than queueing commands.
    this.producer = new IORedis(settings.redis.url, { tls: settings.redis.tls, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000 });
    this.producer.on('error', () => undefined);
    this.queue = new Queue<T>(settings.name, { connection: this.producer, prefix: settings.prefix });
    this.queue.on('error', (err) => this.logger.warn(err.message));
  }

  async enqueue(jobs: JobToQueue<T>[]): Promise<void> {
    if (jobs.length === 0) return;
    const ranks = await this.rank(jobs);
    const backoff = { type: 'exponential', delay: this.settings.backoffMs };
    await this.queue.addBulk(
      jobs.map(({ id, data }, i) => ({
        name: this.settings.jobName,
        data,
        opts: { jobId: id, priority: ranks[i], attempts: attemptsOf(this.settings, data), backoff, removeOnComplete: true, removeOnFail: true },
      })) as Parameters<Queue<T>['addBulk']>[0],
    );
  }

  process(handler: JobHandler<T>): void {
    // A worker's blocking connection must wait for Redis indefinitely (BullMQ requires maxRetriesPerRequest null).
    const connection = (this.workerConnection = new IORedis(this.settings.redis.url, { tls: this.settings.redis.tls, maxRetriesPerRequest: null }));
    connection.on('error', () => undefined);
    this.worker = new Worker<T>(this.settings.name, (job) => this.run(handler, job), {
      connection,
      prefix: this.settings.prefix,
      // Twice the slots in hand, so that the FairLimit has another group's job to run while one group's wait.
      concurrency: this.settings.concurrency * 2,
      lockDuration: this.settings.lockMs,
      // A stalled check every lock period: a dead worker's job waits at most about two of them.
      stalledInterval: this.settings.lockMs,
    });
    this.worker.on('error', (err) => this.logger.warn(`Worker: ${err.message}`));
  }

  async cancel(ids: string[]): Promise<void> {
    for (const id of ids) {
      this.running.get(id)?.abort();
      const job = await this.queue.getJob(id);
      // A job that became active since is locked: remove refuses it, and it runs to its end.
      if (job && NOT_STARTED.has(await job.getState())) {
        await this.queue.remove(id);
        await this.leaveLine(id, job.data as T);
      }
    }
  }

  async counts(): Promise<JobCounts> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed');
    return { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0, delayed: counts.delayed ?? 0 };
  }

  async isReachable(): Promise<boolean> {
    try {
      return (await this.producer.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    if (this.worker) await settledWithin(this.worker.close(), this.settings.closeGraceMs);
    await this.queue.close();
    // BullMQ leaves connections it was handed open.
    this.workerConnection?.disconnect();
    this.producer.disconnect();
  }

  /** One attempt of a job, in its group's turn. */
  private async run(handler: JobHandler<T>, job: Job<T>): Promise<void> {
    const id = job.id!;
    const attempts = job.opts.attempts ?? attemptsOf(this.settings, job.data);
    const attempt = job.attemptsMade + 1;
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      await this.slots.run(this.settings.groupOf?.(job.data) ?? '', async () => {
        // Cancelled (or closing) while it waited for its group's turn in this worker's hands.
        if (!controller.signal.aborted) await handler({ id, data: job.data, attempt, lastAttempt: attempt >= attempts, signal: controller.signal });
      });
    } catch (err) {
      this.logger.warn(`${this.settings.label} ${id} failed (attempt ${attempt} of ${attempts}): ${(err as Error).message}`);
      if (attempt >= attempts) await this.leaveLine(id, job.data).catch(() => undefined);
      throw err;
    } finally {
      this.running.delete(id);
    }
    await this.leaveLine(id, job.data).catch((err: Error) => this.logger.warn(err.message));
  }

  /** Each job's place in its group's line (1 for a group with nothing queued), the job added to the line. An id already in it keeps its place. */
  private async rank(jobs: JobToQueue<T>[]): Promise<number[]> {
    const { groupOf } = this.settings;
    if (!groupOf) return jobs.map(() => 1);
    // Once the connection is ready, as addBulk waits for it: the producer queues nothing while it connects.
    await this.queue.waitUntilReady();
    const multi = this.producer.multi();
    for (const { id, data } of jobs) {
      const line = this.lineKey(groupOf(data) ?? '');
      multi.sadd(line, id).scard(line).expire(line, LINE_TTL_SECONDS);
    }
    const replies = (await multi.exec()) ?? [];
    return jobs.map((_, i) => {
      const [err, size] = replies[i * 3 + 1] ?? [];
      if (err) throw err;
      return Math.min(Math.max(1, Number(size)), LOWEST_PRIORITY);
    });
  }

  /** Leaves its group's line: the job is done for good (completed, failed its last attempt, or cancelled). */
  private async leaveLine(id: string, data: T): Promise<void> {
    const group = this.settings.groupOf?.(data);
    if (group !== undefined) await this.producer.srem(this.lineKey(group), id);
  }

  private lineKey(group: string): string {
    return `${this.settings.prefix}:${this.settings.name}:line:${group}`;
  }
}
