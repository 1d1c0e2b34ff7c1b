import { SweptJobs, type JobRun } from '@cinetrace/job-queue';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { mediaJob, type MediaJob, type MediaJobQueue } from '../media/media-jobs';
import { findCopies, listPendingCopies } from '../store/media-copies.queries';
import { listUnfinishedTargets } from '../store/media-copy-targets.queries';
import { MediaCopier } from './media-copier';
import { COPY_QUEUE } from './trace-media-copies.service';
import { TraceMediaWriteBack } from './trace-media-write-back';

/** Rows handed over per sweep; the next sweep takes the next ones. */
const SWEEP_BATCH = 500;

/**
 * Drains the copy queue into the copier, and at boot and once a minute hands every copy still
 * `pending` to the queue (one never queued, or gone with an all-in-one process) and publishes
 * the write-backs that could not be published (the trace stream away): nothing accepted is lost.
 */
@Injectable()
export class CopySweeper extends SweptJobs<MediaJob> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COPY_QUEUE) private readonly queue: MediaJobQueue,
    private readonly copier: MediaCopier,
    private readonly writeBack: TraceMediaWriteBack,
  ) {
    super(queue, 'media copies');
  }

  /** A copy job's `mediaId` is the copy's id (the field keeps the name jobs were queued with). */
  protected handle({ data, lastAttempt }: JobRun<MediaJob>): Promise<void> {
    return this.copier.copy(data.mediaId, lastAttempt);
  }

  protected async requeue(): Promise<void> {
    const pending = await listPendingCopies(this.dataSource.manager, SWEEP_BATCH);
    if (pending.length) await this.queue.enqueue(pending.map(mediaJob));
    const unfinished = await listUnfinishedTargets(this.dataSource.manager, SWEEP_BATCH);
    const settled = new Set((await findCopies(this.dataSource.manager, [...new Set(unfinished.map((t) => t.copyId))])).filter((c) => c.status !== 'pending').map((c) => c.id));
    await this.writeBack.forTargets(unfinished.filter((t) => settled.has(t.copyId)));
  }
}
