import { BusClient } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { deleteQueuedMedia, oldestQueuedMedia, type QueuedMedia } from '../store/trace-media-outbox';

/** References handed over per request. */
const BATCH = 200;
/** How often what still waits (media-service was away) is handed over again. */
const SWEEP_INTERVAL_MS = 15_000;

/**
 * Hands the media references that stored outputs named (trace_media_outbox) to media-service,
 * which copies them, and deletes each once media-service has taken it: right after the store
 * that queued them, and on a sweep at boot and every 15 s for whatever media-service could not
 * take then. Replicas may hand the same reference over twice; media-service keeps one copy
 * per url.
 */
@Injectable()
export class TraceMediaRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TraceMediaRelay.name);
  private sweeper?: NodeJS.Timeout;
  private running?: Promise<void>;
  private wanted = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: BusClient,
  ) {}

  onApplicationBootstrap(): void {
    this.wake();
    this.sweeper = setInterval(() => this.wake(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    this.wanted = false;
    await this.running;
  }

  /** Hands over what waits now; a call while a hand-over runs makes one more run after it. */
  wake(): void {
    if (this.running) {
      this.wanted = true;
      return;
    }
    this.running = this.handOver().finally(() => {
      this.running = undefined;
      if (!this.wanted) return;
      this.wanted = false;
      this.wake();
    });
  }

  private async handOver(): Promise<void> {
    try {
      for (;;) {
        const batch = await oldestQueuedMedia(this.dataSource.manager, BATCH);
        for (const [projectId, references] of byProject(batch)) {
          await this.bus.request(Patterns.MediaCopiesRequest, {
            projectId,
            references: references.map(({ traceId, spanId, url, contentType }) => ({ traceId, spanId, url, contentType })),
          });
        }
        if (batch.length) await inTransaction(this.dataSource, (manager) => deleteQueuedMedia(manager, batch));
        if (batch.length < BATCH) return;
      }
    } catch (err) {
      this.logger.warn(`Media references not handed to media-service yet (the next sweep retries): ${(err as Error).message}`);
    }
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
