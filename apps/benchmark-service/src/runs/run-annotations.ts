import { BusClient } from '@cinetrace/bus';
import { ANNOTATION_COUNT_MEDIA_MAX, Patterns, type ProjectContext, type RunAnnotationsView } from '@cinetrace/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BenchmarkServiceEnv } from '../benchmark-service.env';
import { countMediaOfRun, mediaOfRun } from '../store/run-media.queries';

/** A run whose outputs name no media: nothing to ask about. */
const none = (): RunAnnotationsView => ({ total: 0, labels: {}, labelsOmitted: 0, mediaOmitted: 0 });

/**
 * A run summary's `annotations`, counted when it is read (annotations change after the run
 * ends): the media the run's outputs name, read from `run_media`, and one request to
 * media-service, which counts only the caller's project's media among them. The request
 * gets half the bus timeout, so that a media-service that does not answer leaves the
 * tasks list answering (with `annotations: null`) before the gateway's own wait runs out.
 */
@Injectable()
export class RunAnnotations {
  private readonly logger = new Logger(RunAnnotations.name);
  private readonly waitMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: BusClient,
    env: BenchmarkServiceEnv,
  ) {
    this.waitMs = Math.floor(env.BUS_TIMEOUT_MS / 2);
  }

  async countsOf(ctx: ProjectContext, runId: string): Promise<RunAnnotationsView | null> {
    const mediaIds = await mediaOfRun(this.dataSource.manager, runId, ANNOTATION_COUNT_MEDIA_MAX + 1);
    if (mediaIds.length === 0) return none();
    const mediaOmitted = mediaIds.length > ANNOTATION_COUNT_MEDIA_MAX ? (await countMediaOfRun(this.dataSource.manager, runId)) - ANNOTATION_COUNT_MEDIA_MAX : 0;
    try {
      const counts = await this.bus.request(Patterns.MediaAnnotationCounts, { ctx, mediaIds: mediaIds.slice(0, ANNOTATION_COUNT_MEDIA_MAX) }, { timeoutMs: this.waitMs });
      return { ...counts, mediaOmitted };
    } catch (err) {
      this.logger.warn(`Run ${runId}: annotation counts not available: ${(err as Error).message}`);
      return null;
    }
  }
}
