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
import { Media } from './store/media.entity';

export const MEDIA_SERVICE = ServiceNames.MediaService;
const entities = [Media];

/** Media rows and their probes; answers on the bus in either run mode, drains the probe queue it is given. */
@Module({})
export class MediaServiceModule {
  static register(env: MediaServiceEnv, probes: ProbeQueue): DynamicModule {
    let ffprobe: MediaTool | undefined;
    return {
      module: MediaServiceModule,
      imports: [LoggingModule.forApp(MEDIA_SERVICE, env.LOG_LEVEL), PersistenceModule.forService(mediaServiceStore(env))],
      controllers: [pingController(Patterns.MediaPing), MediaBusController],
      providers: [
        { provide: MediaServiceEnv, useValue: env },
        { provide: ProbeQueue, useValue: probes },
        {
          provide: MediaProber,
          inject: [getDataSourceToken()],
          // ffprobe is looked up at the first probe: a missing one fails that probe, not the boot (reportMediaTools says so at boot).
          useFactory: (dataSource: DataSource) => new MediaProber(dataSource, blobStoreFrom(env), () => (ffprobe ??= resolveMediaTool('ffprobe', env)), env.PROBE_TIMEOUT_MS),
        },
        MediaService,
        ProbeSweeper,
      ],
    };
  }
}

/** Where media-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const mediaServiceStore = (env: MediaServiceEnv): ServiceDataSourceSpec => serviceStore(MEDIA_SERVICE, env, { entities, migrations: mediaServiceMigrations });
