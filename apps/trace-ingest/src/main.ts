import { KafkaProbe, kafkaServerOptions } from '@cinetrace/bus';
import { kafkaConnectionFromEnv, requireVariables, validateEnv } from '@cinetrace/config';
import { superviseProcess } from '@cinetrace/health';
import { withoutUrlCredentials } from '@cinetrace/logging';
import { storeAnswers } from '@cinetrace/persistence';
import { collectProcessMetrics } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { startTraceIngest } from './start-trace-ingest';
import { TraceIngestEnv } from './trace-ingest.env';
import { TRACE_INGEST } from './trace-ingest.module';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(TraceIngestEnv);
  // Served on HEALTH_PORT's /metrics with the work metrics of this app.
  collectProcessMetrics(TRACE_INGEST);
  const kafka = kafkaConnectionFromEnv(env);
  const app = await startTraceIngest(env, kafkaServerOptions(TRACE_INGEST, kafka), {
    kind: 'kafka',
    clientId: `${TRACE_INGEST}-stream`,
    connection: { ...kafka, maxWaitTimeInMs: env.KAFKA_STREAM_MAX_WAIT_MS },
    partitions: env.TRACE_TOPIC_PARTITIONS,
  });
  const kafkaProbe = new KafkaProbe(TRACE_INGEST, kafka);
  await superviseProcess({
    logger: new Logger(TRACE_INGEST),
    healthPort: env.HEALTH_PORT,
    checks: { store: storeAnswers(app.get(DataSource)), bus: kafkaProbe.reachable },
    // Nest stops the consumers (each finishes and commits the batch in hand), then closes the store.
    close: () => app.close().finally(() => kafkaProbe.close()),
  });
}

main().catch((err: Error) => {
  console.error(`trace-ingest failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
