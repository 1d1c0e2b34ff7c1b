import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ProbeQueue } from '../media/probe-queue';
import { findCopies, listPendingCopyIds } from '../store/media-copies.queries';
import { listUnfinishedTargets } from '../store/media-copy-targets.queries';
import { MediaCopier } from './media-copier';
import { COPY_QUEUE } from './trace-media-copies.service';
import { TraceMediaWriteBack } from './trace-media-write-back';

const SWEEP_INTERVAL_MS = 60_000;
/** Rows handed over per sweep; the next sweep takes the next ones. */
const SWEEP_BATCH = 500;

/**
 * Drains the copy queue into the copier, and at boot and once a minute hands every copy still
 * `pending` to the queue (one never queued, or gone with an all-in-one process) and publishes
 * the write-backs that could not be published (the trace stream away): nothing accepted is lost.
 */
@Injectable()
export class CopySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CopySweeper.name);
  private sweeper?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COPY_QUEUE) private readonly queue: ProbeQueue,
    private readonly copier: MediaCopier,
    private readonly writeBack: TraceMediaWriteBack,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.consume((copyId, lastAttempt) => this.copier.copy(copyId, lastAttempt));
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
      const pending = await listPendingCopyIds(this.dataSource.manager, SWEEP_BATCH);
      if (pending.length) await this.queue.enqueue(pending);
      const unfinished = await listUnfinishedTargets(this.dataSource.manager, SWEEP_BATCH);
      const settled = new Set((await findCopies(this.dataSource.manager, [...new Set(unfinished.map((t) => t.copyId))])).filter((c) => c.status !== 'pending').map((c) => c.id));
      await this.writeBack.forTargets(unfinished.filter((t) => settled.has(t.copyId)));
    } catch (err) {
      this.logger.warn(`Sweep of media copies failed (the next one retries): ${(err as Error).message}`);
    }
  }
}
