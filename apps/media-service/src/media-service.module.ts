import { blobStoreFrom, type BlobStore } from '@cinetrace/blob-store';
import { pingController, StreamPublisher } from '@cinetrace/bus';
import { Patterns, ServiceNames } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { resolveMediaTool, type MediaTool } from '@cinetrace/media-tools';
import { OutboundClient } from '@cinetrace/outbound';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CopySweeper } from './copies/copy-sweeper';
import { MediaCopier } from './copies/media-copier';
import { MediaCopiesBusController } from './copies/media-copies.bus-controller';
import { COPY_QUEUE, TraceMediaCopies } from './copies/trace-media-copies.service';
import { TraceMediaWriteBack } from './copies/trace-media-write-back';
import { MediaBusController } from './media/media.bus-controller';
import { MediaProber } from './media/media-prober';
import { MediaService } from './media/media.service';
import { PROBE_QUEUE, type MediaJobQueue } from './media/media-jobs';
import { ProbeSweeper } from './media/probe-sweeper';
import { mediaServiceMigrations } from './migrations';
import { MediaServiceEnv, perProjectSlots } from './media-service.env';
import { AnnotationsBusController } from './annotations/annotations.bus-controller';
import { AnnotationsService } from './annotations/annotations.service';
import { MediaFramesBusController } from './frames/media-frames.bus-controller';
import { MediaFramesService } from './frames/media-frames.service';
import { StoryboardBuilder } from './storyboard/storyboard-builder';
import { STORYBOARD_JOBS, StoryboardService } from './storyboard/storyboard.service';
import { MediaCopyTarget } from './store/media-copy-target.entity';
import { MediaCopy } from './store/media-copy.entity';
import { Media } from './store/media.entity';
import { MediaAnnotation } from './store/media-annotation.entity';

export const MEDIA_SERVICE = ServiceNames.MediaService;

/** Copies of media that trace outputs name one media-service runs at once (downloads into the storage, no CPU to speak of). */
export const COPY_CONCURRENCY = 4;
const entities = [Media, MediaAnnotation, MediaCopy, MediaCopyTarget];

/** The queues media-service drains, and the trace stream its copies' write-backs go to. */
export interface MediaServiceWiring {
  probes: MediaJobQueue;
  /** Storyboard jobs: apart from the probes, so a long scene detection never delays a probe. */
  storyboards: MediaJobQueue;
  /** Copy jobs of media that trace outputs name: a queue like the probes', under its own name. */
  copies: MediaJobQueue;
  traces: StreamPublisher;
}

/**
 * Media rows, their probes, frames, storyboards and annotations, and the copies of media that
 * trace outputs name; answers on the bus in either run mode, drains the queues it is given.
 */
@Module({})
export class MediaServiceModule {
  static register(env: MediaServiceEnv, { probes, storyboards, copies, traces }: MediaServiceWiring): DynamicModule {
    let ffprobe: MediaTool | undefined;
    let ffmpeg: MediaTool | undefined;
    let store: BlobStore | undefined;
    // Looked up at the first use: a missing ffmpeg fails that request or job, not the boot (reportMediaTools says so at boot).
    const ffmpegTool = () => (ffmpeg ??= resolveMediaTool('ffmpeg', env));
    // Made by the first provider that needs it, so that building the module (its spec) opens no storage.
    const blobs = () => (store ??= blobStoreFrom(env));
    return {
      module: MediaServiceModule,
      imports: [LoggingModule.forApp(MEDIA_SERVICE, env.LOG_LEVEL), PersistenceModule.forService(mediaServiceStore(env))],
      controllers: [pingController(Patterns.MediaPing), MediaBusController, MediaFramesBusController, AnnotationsBusController, MediaCopiesBusController],
      providers: [
        { provide: MediaServiceEnv, useValue: env },
        { provide: PROBE_QUEUE, useValue: probes },
        { provide: STORYBOARD_JOBS, useValue: storyboards },
        { provide: COPY_QUEUE, useValue: copies },
        { provide: StreamPublisher, useValue: traces },
        {
          provide: MediaProber,
          inject: [getDataSourceToken(), TraceMediaWriteBack],
          // ffprobe is looked up at the first probe: a missing one fails that probe, not the boot (reportMediaTools says so at boot).
          useFactory: (dataSource: DataSource, writeBack: TraceMediaWriteBack) =>
            new MediaProber(
              dataSource,
              blobs(),
              () => (ffprobe ??= resolveMediaTool('ffprobe', env)),
              { timeoutMs: env.PROBE_TIMEOUT_MS, maxPixels: env.MEDIA_MAX_PIXELS },
              (mediaId) => writeBack.forMedia(mediaId),
            ),
        },
        {
          provide: MediaCopier,
          inject: [getDataSourceToken(), MediaService, TraceMediaWriteBack],
          useFactory: (dataSource: DataSource, media: MediaService, writeBack: TraceMediaWriteBack) =>
            new MediaCopier(dataSource, blobs(), new OutboundClient({ allowPrivate: env.OUTBOUND_ALLOW_PRIVATE, userAgent: 'cinetrace-media' }), media, writeBack, {
              maxBytes: env.MEDIA_MAX_BYTES,
              timeoutMs: env.MEDIA_FETCH_TIMEOUT_MS,
            }),
        },
        MediaService,
        ProbeSweeper,
        {
          provide: MediaFramesService,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) =>
            new MediaFramesService(dataSource, blobs(), ffmpegTool, {
              concurrency: env.FRAME_CONCURRENCY,
              perProject: perProjectSlots(env.FRAME_CONCURRENCY, env.FRAME_PROJECT_CONCURRENCY),
              timeoutMs: env.FRAME_TIMEOUT_MS,
              maxPixels: env.MEDIA_MAX_PIXELS,
            }),
        },
        StoryboardService,
        {
          provide: StoryboardBuilder,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => new StoryboardBuilder(dataSource, blobs(), storyboards, ffmpegTool, env.STORYBOARD_TIMEOUT_MS),
        },
        AnnotationsService,
        TraceMediaWriteBack,
        TraceMediaCopies,
        CopySweeper,
      ],
    };
  }
}

/** Where media-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const mediaServiceStore = (env: MediaServiceEnv): ServiceDataSourceSpec => serviceStore(MEDIA_SERVICE, env, { entities, migrations: mediaServiceMigrations });
