import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { listPendingMedia } from '../store/media.queries';
import { MediaProber } from './media-prober';
import { ProbeQueue } from './probe-queue';
import { SweptQueue } from './swept-queue';

/** Pending media handed to the queue per sweep; the next sweep takes the next ones. */
const SWEEP_BATCH = 500;

/**
 * Drains the probe queue into the prober, and hands every media still `pending` to the queue
 * at boot and once a minute: a probe whose job was never queued (Redis away at register) or
 * went with an all-in-one process still runs, so nothing accepted stays pending.
 */
@Injectable()
export class ProbeSweeper extends SweptQueue {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: ProbeQueue,
    private readonly prober: MediaProber,
  ) {
    super(queue, 'pending media');
  }

  protected run(mediaId: string, lastAttempt: boolean): Promise<void> {
    return this.prober.probe(mediaId, lastAttempt);
  }

  protected async requeue(): Promise<void> {
    const pending = await listPendingMedia(this.dataSource.manager, SWEEP_BATCH);
    if (pending.length) await this.queue.enqueue(pending);
  }
}
