import { BusClientConfig, BusModule, pingController } from '@cinetrace/bus';
import { Patterns, ServiceNames } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { IngestSource, ingestSubscription } from './ingest/ingest-source';
import { TraceIngestHandler } from './ingest/trace-ingest.handler';
import { traceIngestMigrations } from './migrations';
import { TraceMediaRelay } from './media/trace-media-relay';
import { ModelPriceTables } from './prices/model-price-tables';
import { ModelPricesBusController } from './prices/model-prices.bus-controller';
import { ModelPricesService } from './prices/model-prices.service';
import { TraceReadsService } from './reads/trace-reads.service';
import { TracesBusController } from './reads/traces.bus-controller';
import { ScoresBusController } from './scores/scores.bus-controller';
import { ScoresService } from './scores/scores.service';
import { ReceiptPruner } from './store/receipt-pruner';
import { TraceWriter } from './store/trace-writer';
import { TraceIngestEnv } from './trace-ingest.env';

export const TRACE_INGEST = ServiceNames.TraceIngest;

/** How long handing media references to media-service waits for its answer (the relay's sweep tries again). */
export const MEDIA_HANDOFF_TIMEOUT_MS = 10_000;

/**
 * Traces: consumes the trace stream in batches and stores them (raw multi-row SQL, no
 * entities: the write path is the hot path), pricing spans without a cost by the project's
 * model prices, answers trace reads, the price tables and the scores on the bus, and hands the media
 * references of stored outputs to media-service (`bus`) to be copied.
 */
@Module({})
export class TraceIngestModule {
  static register(env: TraceIngestEnv, source: IngestSource, bus: BusClientConfig): DynamicModule {
    return {
      module: TraceIngestModule,
      imports: [LoggingModule.forApp(TRACE_INGEST, env.LOG_LEVEL), PersistenceModule.forService(traceIngestStore(env)), BusModule.forClient(bus)],
      controllers: [pingController(Patterns.TracePing), TracesBusController, ModelPricesBusController, ScoresBusController],
      providers: [
        { provide: TraceIngestEnv, useValue: env },
        TraceWriter,
        TraceIngestHandler,
        ingestSubscription(source),
        TraceReadsService,
        ReceiptPruner,
        TraceMediaRelay,
        ModelPriceTables,
        ModelPricesService,
        ScoresService,
      ],
    };
  }
}

/** Where trace-ingest keeps its data, as its module and its migration step (migrate.ts) open it. */
export const traceIngestStore = (env: TraceIngestEnv): ServiceDataSourceSpec => ({
  // Raw SQL: spans and traces are written in bulk, not through entities.
  ...serviceStore(TRACE_INGEST, env, { entities: [], migrations: traceIngestMigrations }),
  postgresSettings: TRACE_STORE_SETTINGS,
});

/**
 * No bitmap scans: a list page must walk its index newest first and stop at the page's end,
 * whatever the statistics say. When they undercount a project's traces (a burst not yet
 * analyzed, a new tenant in a large table), PostgreSQL chose a bitmap scan of every one of the
 * project's traces and a sort, a cost growing with the project, where the index reads only the
 * page (list-plan.spec.ts). Every other statement of the service reads by key, where an index
 * scan does as well.
 */
const TRACE_STORE_SETTINGS = { enable_bitmapscan: 'off' };
