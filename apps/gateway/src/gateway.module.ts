import { blobStoreFrom } from '@cinetrace/blob-store';
import { BusClientConfig, BusModule, StreamPublisher } from '@cinetrace/bus';
import { LoggingModule } from '@cinetrace/logging';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { createValidationPipe } from '@cinetrace/validation';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { AuthCache } from './auth/auth-cache';
import { AuthGuard } from './auth/auth.guard';
import { GatewayEnv } from './gateway.env';
import { IdempotencyRecord } from './store/idempotency-record.entity';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { BenchmarksController } from './benchmarks/benchmarks.controller';
import { DatasetsController } from './datasets/datasets.controller';
import { UnknownQueryGuard } from './http/unknown-query.guard';
import { CursorCodec } from './lists/cursor-codec';
import { ListResponder } from './lists/list-responder';
import { MEDIA_BLOBS, MediaIntake } from './media/media-intake';
import { MediaUploadSlots } from './media/media-upload-slots';
import { ProjectExportsInFlight } from './ingest/project-exports-in-flight';
import { MediaController } from './media/media.controller';
import { MediaReviewController } from './media/media-review.controller';
import { gatewayMigrations } from './migrations';
import { HttpMetrics } from './ops/http-metrics';
import { OperationsController } from './ops/operations.controller';
import { OtlpGrpcPort } from './ops/otlp-grpc-port';
import { GatewayExceptionFilter } from './ingest/otlp-exception.filter';
import { OtlpGrpcServer } from './ingest/otlp-grpc.server';
import { OTLP_TRACE_ROUTES } from './ingest/otlp-routes';
import { OtlpDecodePool } from './ingest/otlp-decode-pool';
import { OtlpIngest } from './ingest/otlp-ingest';
import { OrganizationsController } from './organizations/organizations.controller';
import { ProjectsController } from './projects/projects.controller';
import { PromptReleasesController } from './prompts/prompt-releases.controller';
import { PromptsController } from './prompts/prompts.controller';
import { SecretSealer } from './secrets/secret-sealer';
import { SecretsController } from './secrets/secrets.controller';
import { GatewaySetting } from './store/gateway-setting.entity';
import { sharedSecret } from './settings/shared-secret';
import { TraceIngestor } from './traces/trace-ingestor';
import { ModelPricesController } from './traces/model-prices.controller';
import { ScoreConfigsController } from './scores/score-configs.controller';
import { ScoresController } from './scores/scores.controller';
import { TracesController } from './traces/traces.controller';

export const GATEWAY = 'gateway';
const entities = [IdempotencyRecord, GatewaySetting];

/** The HTTP edge: authentication, validation, problem details, idempotency; routes over the bus. */
@Module({})
export class GatewayModule {
  static register(env: GatewayEnv, bus: BusClientConfig, streams: StreamPublisher): DynamicModule {
    return {
      module: GatewayModule,
      imports: [LoggingModule.forApp(GATEWAY, env.LOG_LEVEL, OTLP_TRACE_ROUTES), BusModule.forClient(bus), PersistenceModule.forService(gatewayStore(env))],
      controllers: [
        ProjectsController,
        ApiKeysController,
        SecretsController,
        OrganizationsController,
        PromptsController,
        PromptReleasesController,
        TracesController,
        ModelPricesController,
        ScoresController,
        ScoreConfigsController,
        DatasetsController,
        BenchmarksController,
        MediaController,
        MediaReviewController,
        OperationsController,
      ],
      providers: [
        { provide: GatewayEnv, useValue: env },
        { provide: StreamPublisher, useValue: streams },
        TraceIngestor,
        { provide: MEDIA_BLOBS, useFactory: () => blobStoreFrom(env) },
        MediaIntake,
        MediaUploadSlots,
        OtlpDecodePool,
        OtlpIngest,
        { provide: ProjectExportsInFlight, useValue: new ProjectExportsInFlight(env.OTLP_PROJECT_EXPORTS) },
        OtlpGrpcServer,
        { provide: OtlpGrpcPort, inject: [OtlpGrpcServer], useFactory: (grpc: OtlpGrpcServer): OtlpGrpcPort => ({ current: () => grpc.port ?? null }) },
        { provide: AuthCache, useValue: new AuthCache(env.AUTH_CACHE_TTL_MS) },
        {
          provide: CursorCodec,
          inject: [getDataSourceToken()],
          useFactory: async (dataSource: DataSource) => new CursorCodec(await sharedSecret(dataSource, 'cursor_secret')),
        },
        ListResponder,
        SecretSealer,
        IdempotencyStore,
        HttpMetrics,
        AuthGuard,
        { provide: APP_GUARD, useExisting: AuthGuard },
        // After authentication, and before idempotency (guards run before interceptors): a request refused for its query claims no Idempotency-Key.
        { provide: APP_GUARD, useClass: UnknownQueryGuard },
        // On each POST route that takes Idempotency-Key (@Idempotent), not global: see idempotent.decorator.ts.
        IdempotencyInterceptor,
        { provide: APP_FILTER, useClass: GatewayExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}

/** Where gateway keeps its data, as its module and its migration step (migrate.ts) open it. */
export const gatewayStore = (env: GatewayEnv): ServiceDataSourceSpec => serviceStore(GATEWAY, env, { entities, migrations: gatewayMigrations });
