import { blobStoreFrom } from '@cinetrace/blob-store';
import { pingController } from '@cinetrace/bus';
import { Patterns, ServiceNames } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { resolveMediaTool, type MediaTool } from '@cinetrace/media-tools';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MediaBusController } from './media/media.bus-controller';
import { MediaProber } from './media/media-prober';
import { MediaService } from './media/media.service';
import { ProbeQueue } from './media/probe-queue';
import { ProbeSweeper } from './media/probe-sweeper';
import { mediaServiceMigrations } from './migrations';
import { MediaServiceEnv } from './media-service.env';
import { AnnotationsBusController } from './annotations/annotations.bus-controller';
import { AnnotationsService } from './annotations/annotations.service';
import { MediaFramesBusController } from './frames/media-frames.bus-controller';
import { MediaFramesService } from './frames/media-frames.service';
import { StoryboardBuilder } from './storyboard/storyboard-builder';
import { STORYBOARD_JOBS, StoryboardService } from './storyboard/storyboard.service';
import { Media } from './store/media.entity';
import { MediaAnnotation } from './store/media-annotation.entity';

export const MEDIA_SERVICE = ServiceNames.MediaService;
const entities = [Media, MediaAnnotation];

/** The queues media-service drains: probes, and storyboards (apart, so a long scene detection never delays a probe). */
export interface MediaJobQueues {
  probes: ProbeQueue;
  storyboards: ProbeQueue;
}

/** Media rows, their probes, frames, storyboards and annotations; answers on the bus in either run mode, drains the queues it is given. */
@Module({})
export class MediaServiceModule {
  static register(env: MediaServiceEnv, queues: MediaJobQueues): DynamicModule {
    let ffprobe: MediaTool | undefined;
    let ffmpeg: MediaTool | undefined;
    // Looked up at the first use: a missing ffmpeg fails that request or job, not the boot (reportMediaTools says so at boot).
    const ffmpegTool = () => (ffmpeg ??= resolveMediaTool('ffmpeg'));
    const blobs = blobStoreFrom(env);
    return {
      module: MediaServiceModule,
      imports: [LoggingModule.forApp(MEDIA_SERVICE, env.LOG_LEVEL), PersistenceModule.forService(mediaServiceStore(env))],
      controllers: [pingController(Patterns.MediaPing), MediaBusController, MediaFramesBusController, AnnotationsBusController],
      providers: [
        { provide: MediaServiceEnv, useValue: env },
        { provide: ProbeQueue, useValue: queues.probes },
        { provide: STORYBOARD_JOBS, useValue: queues.storyboards },
        {
          provide: MediaProber,
          inject: [getDataSourceToken()],
          // ffprobe is looked up at the first probe: a missing one fails that probe, not the boot (reportMediaTools says so at boot).
          useFactory: (dataSource: DataSource) => new MediaProber(dataSource, blobs, () => (ffprobe ??= resolveMediaTool('ffprobe')), env.PROBE_TIMEOUT_MS),
        },
        MediaService,
        ProbeSweeper,
        {
          provide: MediaFramesService,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => new MediaFramesService(dataSource, blobs, ffmpegTool, { concurrency: env.FRAME_CONCURRENCY, timeoutMs: env.FRAME_TIMEOUT_MS }),
        },
        StoryboardService,
        {
          provide: StoryboardBuilder,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => new StoryboardBuilder(dataSource, blobs, queues.storyboards, ffmpegTool, env.STORYBOARD_TIMEOUT_MS),
        },
        AnnotationsService,
      ],
    };
  }
}

/** Where media-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const mediaServiceStore = (env: MediaServiceEnv): ServiceDataSourceSpec => serviceStore(MEDIA_SERVICE, env, { entities, migrations: mediaServiceMigrations });
