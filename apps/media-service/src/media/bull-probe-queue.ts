import type { RedisConnectionSettings } from '@cinetrace/config';
import { MEDIA_QUEUE } from '@cinetrace/contracts';
import { Logger } from '@nestjs/common';
import { type Job, Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { FairLimit } from '../fair/fair-limit';
import { PROBE_ATTEMPTS, ProbeJob, ProbeQueue, QueuedJob } from './probe-queue';

interface ProbeJobData {
  /** The id the job is for: a media's (a copy's, in the copy queue). Never renamed: queued jobs carry it. */
  mediaId: string;
  /** The project the job serves (absent on jobs queued before fair sharing: they share one line). */
  projectId?: string;
}

/** BullMQ's lowest priority (the largest number it takes). */
const LOWEST_PRIORITY = 2_097_151;
/** A project's line of queued ids is forgotten a day after its last job was added (a job lost with Redis's data leaves no lasting penalty). */
const LINE_TTL_SECONDS = 24 * 3600;

/**
 * The distributed mode's probe queue: BullMQ's `media-jobs` in Redis, one job per media (job
 * id = media id, so a sweep that hands a waiting media over again adds nothing), drained by
 * this media-service with `concurrency` at a time. A job in hand when the process dies is
 * taken up again once BullMQ sees it stalled: its lock (`lockMs`) lapsed and not renewed. The
 * storyboard and copy jobs use the same class on queues of their own (`names`).
 *
 * Fair between projects (issue 59): a job's BullMQ priority is its rank in its project's line
 * (the project's n-th queued job gets priority n; a set per project in Redis counts them), so
 * the workers take every project's first job before any project's second, and so on. Each
 * worker holds twice `concurrency` jobs and runs them through a FairLimit: at most
 * `perProject` of one project's jobs run at once, the others wait their turn in hand.
 */
export class BullProbeQueue extends ProbeQueue {
  private readonly logger = new Logger('ProbeQueue');
  private readonly producer: IORedis;
  private readonly queue: Queue<ProbeJobData>;
  private worker?: Worker<ProbeJobData>;
  private workerConnection?: IORedis;
  private readonly slots: FairLimit;

  constructor(
    private readonly redis: RedisConnectionSettings,
    private readonly prefix: string,
    private readonly concurrency: number,
    private readonly lockMs: number,
    /** The queue and its jobs' name: `media-jobs` for probes; the copy jobs have a queue of their own. */
    private readonly names: { queue: string; job: string } = { queue: MEDIA_QUEUE, job: 'probe' },
    /** One project's jobs running at once in this worker; default all the slots (no cap). */
    perProject = concurrency,
  ) {
    super();
    this.slots = new FairLimit(concurrency, perProject);
    // Fail fast while Redis is away (the sweep enqueues later) rather than queueing commands.
    this.producer = new IORedis(redis.url, { tls: redis.tls, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000 });
    this.producer.on('error', () => undefined);
    this.queue = new Queue<ProbeJobData>(names.queue, { connection: this.producer, prefix });
    this.queue.on('error', (err) => this.logger.warn(`Queue ${names.queue}: ${err.message}`));
  }

  async enqueue(jobs: QueuedJob[]): Promise<void> {
    const ranks = await this.rank(jobs);
    await this.queue.addBulk(
      jobs.map(({ id, projectId }, i) => ({
        name: this.names.job,
        data: { mediaId: id, projectId },
        opts: { jobId: id, priority: ranks[i], attempts: PROBE_ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: true },
      })),
    );
  }

  /** Each job's place in its project's line (1 for a project with nothing queued), the job added to the line. An id already in it keeps its place. */
  private async rank(jobs: QueuedJob[]): Promise<number[]> {
    // Once the connection is ready, as addBulk waits for it: the producer queues nothing while it connects.
    await this.queue.waitUntilReady();
    const multi = this.producer.multi();
    for (const { id, projectId } of jobs) {
      const line = this.lineKey(projectId);
      multi.sadd(line, id).scard(line).expire(line, LINE_TTL_SECONDS);
    }
    const replies = (await multi.exec()) ?? [];
    return jobs.map((_, i) => {
      const [err, size] = replies[i * 3 + 1] ?? [];
      if (err) throw err;
      return Math.min(Math.max(1, Number(size)), LOWEST_PRIORITY);
    });
  }

  /** Leaves the project's line: the job is done for good (completed, or failed its last attempt). */
  private async leaveLine(data: ProbeJobData): Promise<void> {
    if (data.projectId !== undefined) await this.producer.srem(this.lineKey(data.projectId), data.mediaId);
  }

  private lineKey(projectId: string): string {
    return `${this.prefix}:${this.names.queue}:line:${projectId}`;
  }

  consume(job: ProbeJob): void {
    // A worker's blocking connection must wait for Redis indefinitely (BullMQ requires maxRetriesPerRequest null).
    const connection = (this.workerConnection = new IORedis(this.redis.url, { tls: this.redis.tls, maxRetriesPerRequest: null }));
    connection.on('error', () => undefined);
    const run = async (j: Job<ProbeJobData>): Promise<void> => {
      const lastAttempt = j.attemptsMade + 1 >= PROBE_ATTEMPTS;
      try {
        await this.slots.run(j.data.projectId ?? '', () => job(j.data.mediaId, lastAttempt));
      } catch (err) {
        if (lastAttempt) await this.leaveLine(j.data).catch(() => undefined);
        throw err;
      }
      await this.leaveLine(j.data).catch((err: Error) => this.logger.warn(`Queue ${this.names.queue}: ${err.message}`));
    };
    this.worker = new Worker<ProbeJobData>(this.names.queue, run, {
      connection,
      prefix: this.prefix,
      // Twice the slots in hand, so that the FairLimit has another project's job to run while one project's wait.
      concurrency: this.concurrency * 2,
      lockDuration: this.lockMs,
      // A stalled check every lock period: a dead worker's job waits at most about two of them.
      stalledInterval: this.lockMs,
    });
    this.worker.on('error', (err) => this.logger.warn(`Worker of ${this.names.queue}: ${err.message}`));
  }

  async isReachable(): Promise<boolean> {
    try {
      return (await this.producer.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    // BullMQ leaves connections it was handed open.
    this.workerConnection?.disconnect();
    this.producer.disconnect();
  }
}
