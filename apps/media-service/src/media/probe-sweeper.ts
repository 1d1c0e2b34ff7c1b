import { SweptJobs, type JobRun } from '@cinetrace/job-queue';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { listPendingMedia } from '../store/media.queries';
import { MediaProber } from './media-prober';
import { mediaJob, PROBE_QUEUE, type MediaJob, type MediaJobQueue } from './media-jobs';

/** Pending media handed to the queue per sweep; the next sweep takes the next ones. */
const SWEEP_BATCH = 500;

/**
 * Drains the probe queue into the prober, and hands every media still `pending` to the queue
 * at boot and once a minute: a probe whose job was never queued (Redis away at register) or
 * went with an all-in-one process still runs, so nothing accepted stays pending.
 */
@Injectable()
export class ProbeSweeper extends SweptJobs<MediaJob> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PROBE_QUEUE) private readonly queue: MediaJobQueue,
    private readonly prober: MediaProber,
  ) {
    super(queue, 'pending media');
  }

  protected handle({ data, lastAttempt }: JobRun<MediaJob>): Promise<void> {
    return this.prober.probe(data.mediaId, lastAttempt);
  }

  protected async requeue(): Promise<void> {
    const pending = await listPendingMedia(this.dataSource.manager, SWEEP_BATCH);
    if (pending.length) await this.queue.enqueue(pending.map(mediaJob));
  }
}
