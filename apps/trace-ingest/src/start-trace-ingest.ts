import { bootLogger, withStartupAtDebug } from '@cinetrace/logging';
import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { Logger } from 'nestjs-pino';
import { IngestSource } from './ingest/ingest-source';
import { TraceIngestEnv } from './trace-ingest.env';
import { TRACE_INGEST, TraceIngestModule } from './trace-ingest.module';

/** Starts trace-ingest: reads on the given transport, the trace stream from the given source. */
export async function startTraceIngest(
  env: TraceIngestEnv,
  transport: KafkaOptions | CustomStrategy,
  source: IngestSource,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(TraceIngestModule.register(env, source), {
    ...transport,
    logger: bootLogger(TRACE_INGEST, env.LOG_LEVEL),
    abortOnError: false,
  });
  app.useLogger(withStartupAtDebug(app.get(Logger)));
  await app.listen();
  return app;
}
