import type { RedisConnectionSettings } from '@cinetrace/config';
import { MEDIA_QUEUE } from '@cinetrace/contracts';
import { Logger } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { PROBE_ATTEMPTS, ProbeJob, ProbeQueue } from './probe-queue';

interface ProbeJobData {
  /** The id the job is for: a media's (a copy's, in the copy queue). Never renamed: queued jobs carry it. */
  mediaId: string;
}

/**
 * The distributed mode's probe queue: BullMQ's `media-jobs` in Redis, one job per media (job
 * id = media id, so a sweep that hands a waiting media over again adds nothing), drained by
 * this media-service with `concurrency` at a time. A job in hand when the process dies is
 * taken up again once BullMQ sees it stalled: its lock (`lockMs`) lapsed and not renewed. The
 * storyboard and copy jobs use the same class on queues of their own (`names`).
 */
export class BullProbeQueue extends ProbeQueue {
  private readonly logger = new Logger('ProbeQueue');
  private readonly producer: IORedis;
  private readonly queue: Queue<ProbeJobData>;
  private worker?: Worker<ProbeJobData>;
  private workerConnection?: IORedis;

  constructor(
    private readonly redis: RedisConnectionSettings,
    private readonly prefix: string,
    private readonly concurrency: number,
    private readonly lockMs: number,
    /** The queue and its jobs' name: `media-jobs` for probes; the copy jobs have a queue of their own. */
    private readonly names: { queue: string; job: string } = { queue: MEDIA_QUEUE, job: 'probe' },
  ) {
    super();
    // Fail fast while Redis is away (the sweep enqueues later) rather than queueing commands.
    this.producer = new IORedis(redis.url, { tls: redis.tls, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000 });
    this.producer.on('error', () => undefined);
    this.queue = new Queue<ProbeJobData>(names.queue, { connection: this.producer, prefix });
    this.queue.on('error', (err) => this.logger.warn(`Queue ${names.queue}: ${err.message}`));
  }

  async enqueue(mediaIds: string[]): Promise<void> {
    await this.queue.addBulk(
      mediaIds.map((mediaId) => ({
        name: this.names.job,
        data: { mediaId },
        opts: { jobId: mediaId, attempts: PROBE_ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: true },
      })),
    );
  }

  consume(job: ProbeJob): void {
    // A worker's blocking connection must wait for Redis indefinitely (BullMQ requires maxRetriesPerRequest null).
    const connection = (this.workerConnection = new IORedis(this.redis.url, { tls: this.redis.tls, maxRetriesPerRequest: null }));
    connection.on('error', () => undefined);
    this.worker = new Worker<ProbeJobData>(this.names.queue, (j) => job(j.data.mediaId, j.attemptsMade + 1 >= PROBE_ATTEMPTS), {
      connection,
      prefix: this.prefix,
      concurrency: this.concurrency,
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
