import { startMicroservice } from '@cinetrace/bootstrap';
import type { BusClientConfig } from '@cinetrace/bus';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { IngestSource } from './ingest/ingest-source';
import { TraceIngestEnv } from './trace-ingest.env';
import { TRACE_INGEST, TraceIngestModule } from './trace-ingest.module';

/**
 * Starts trace-ingest: reads on the given transport, the trace stream from the given source;
 * `bus` is how it hands media references to media-service.
 */
export function startTraceIngest(env: TraceIngestEnv, transport: KafkaOptions | CustomStrategy, source: IngestSource, bus: BusClientConfig): Promise<INestMicroservice> {
  return startMicroservice(TRACE_INGEST, TraceIngestModule.register(env, source, bus), transport, env.LOG_LEVEL);
}
