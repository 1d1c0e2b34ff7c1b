import { KafkaStreamPublisher } from '@cinetrace/bus';
import { kafkaConnectionFromEnv, requireVariables, validateEnv } from '@cinetrace/config';
import { shutDownGracefullyOnSignal } from '@cinetrace/health';
import { withoutUrlCredentials } from '@cinetrace/logging';
import { reportIngestLagFrom } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';
import { ConsumerGroups, Patterns, Topics } from '@cinetrace/contracts';
import { GatewayEnv } from './gateway.env';
import { GATEWAY } from './gateway.module';
import { startGateway } from './start-gateway';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(GatewayEnv);
  const kafka = kafkaConnectionFromEnv(env);
  const lagBounds = env.TRACE_INGEST_MAX_LAG_BYTES
    ? [{ topic: Topics.TraceIngest, groupId: ConsumerGroups.TraceIngest, maxLagBytes: env.TRACE_INGEST_MAX_LAG_BYTES }]
    : [];
  const streams = new KafkaStreamPublisher(GATEWAY, kafka, { lagBounds });
  // The lag gate already reads trace-ingest's lag for backpressure: its last reading is the metric (none while unbounded).
  reportIngestLagFrom({ records: () => streams.lagOf(Topics.TraceIngest).records, bytes: () => streams.lagOf(Topics.TraceIngest).bytes });
  const app = await startGateway(
    env,
    { transport: 'kafka', clientId: GATEWAY, kafka, timeoutMs: env.BUS_TIMEOUT_MS, patterns: Object.values(Patterns) },
    streams,
  );
  // Fastify stops accepting connections and lets requests in flight finish before the bus and the store close.
  shutDownGracefullyOnSignal({ logger: new Logger(GATEWAY), close: () => app.close() });
}

main().catch((err: Error) => {
  console.error(`gateway failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
