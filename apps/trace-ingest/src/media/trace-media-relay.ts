import { BusClient } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { inTransaction, OutboxRelayProvider } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { deleteQueuedMedia, oldestQueuedMedia, type QueuedMedia } from '../store/trace-media-outbox';

/** References handed over per request. */
const BATCH = 200;

/**
 * Hands the media references that stored outputs named (trace_media_outbox) to media-service,
 * which copies them, and deletes each once media-service has taken it: right after the store
 * that queued them, on a sweep at boot and every 15 s, and after a failure once a backoff has
 * passed. Replicas may hand the same reference over twice; media-service keeps one copy per url.
 */
@Injectable()
export class TraceMediaRelay extends OutboxRelayProvider {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: BusClient,
  ) {
    super(TraceMediaRelay.name);
  }

  /** One batch, oldest first; answers whether more may wait. */
  protected async handOverBatch(): Promise<boolean> {
    const batch = await oldestQueuedMedia(this.dataSource.manager, BATCH);
    for (const [projectId, references] of byProject(batch)) {
      await this.bus.request(Patterns.MediaCopiesRequest, {
        projectId,
        references: references.map(({ traceId, spanId, url, contentType }) => ({ traceId, spanId, url, contentType })),
      });
    }
    if (batch.length) await inTransaction(this.dataSource, (manager) => deleteQueuedMedia(manager, batch));
    return batch.length === BATCH;
  }
}

function byProject(references: readonly QueuedMedia[]): Map<string, QueuedMedia[]> {
  const projects = new Map<string, QueuedMedia[]>();
  for (const reference of references) {
    const ofProject = projects.get(reference.projectId);
    if (ofProject) ofProject.push(reference);
    else projects.set(reference.projectId, [reference]);
  }
  return projects;
}
