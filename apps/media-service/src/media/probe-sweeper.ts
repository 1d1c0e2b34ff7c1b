import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { listPendingMediaIds } from '../store/media.queries';
import { MediaProber } from './media-prober';
import { ProbeQueue } from './probe-queue';

const SWEEP_INTERVAL_MS = 60_000;
/** Pending media handed to the queue per sweep; the next sweep takes the next ones. */
const SWEEP_BATCH = 500;

/**
 * Drains the probe queue into the prober, and hands every media still `pending` to the queue
 * at boot and once a minute: a probe whose job was never queued (Redis away at register) or
 * went with an all-in-one process still runs, so nothing accepted stays pending.
 */
@Injectable()
export class ProbeSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ProbeSweeper.name);
  private sweeper?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: ProbeQueue,
    private readonly prober: MediaProber,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.consume((mediaId, lastAttempt) => this.prober.probe(mediaId, lastAttempt));
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    await this.queue.close();
  }

  async sweep(): Promise<void> {
    try {
      const pending = await listPendingMediaIds(this.dataSource.manager, SWEEP_BATCH);
      if (pending.length) await this.queue.enqueue(pending);
    } catch (err) {
      this.logger.warn(`Sweep of pending media failed (the next one retries): ${(err as Error).message}`);
    }
  }
}
