import { kafkaServerOptions } from '@cinetrace/bus';
import { requireVariables, validateEnv } from '@cinetrace/config';
import { startTraceIngest } from './start-trace-ingest';
import { TraceIngestEnv } from './trace-ingest.env';
import { TRACE_INGEST } from './trace-ingest.module';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(TraceIngestEnv);
  const kafka = { brokers: env.KAFKA_BROKERS!.split(','), maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS };
  const app = await startTraceIngest(env, kafkaServerOptions(TRACE_INGEST, kafka), {
    kind: 'kafka',
    clientId: `${TRACE_INGEST}-stream`,
    connection: kafka,
    partitions: env.TRACE_TOPIC_PARTITIONS,
  });
  app.enableShutdownHooks();
}

main().catch((err: Error) => {
  console.error(`trace-ingest failed to start: ${err.message}`);
  process.exit(1);
});
