import { runServiceProcess } from '@cinetrace/bootstrap';
import { KafkaStreamPublisher } from '@cinetrace/bus';
import { ConsumerGroups, Patterns, Topics } from '@cinetrace/contracts';
import { reportIngestLagFrom } from '@cinetrace/metrics';
import { GatewayEnv } from './gateway.env';
import { GATEWAY } from './gateway.module';
import { startGateway } from './start-gateway';

// The gateway serves its probes on PORT itself (GatewayEnv has no HEALTH_PORT).
runServiceProcess({
  name: GATEWAY,
  env: GatewayEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL'],
  start: async (env, kafka) => {
    const lagBounds = env.TRACE_INGEST_MAX_LAG_BYTES ? [{ topic: Topics.TraceIngest, groupId: ConsumerGroups.TraceIngest, maxLagBytes: env.TRACE_INGEST_MAX_LAG_BYTES }] : [];
    const streams = new KafkaStreamPublisher(GATEWAY, kafka, { lagBounds });
    // The lag gate already reads trace-ingest's lag for backpressure: its last reading is the metric (none while unbounded).
    reportIngestLagFrom({ records: () => streams.lagOf(Topics.TraceIngest).records, bytes: () => streams.lagOf(Topics.TraceIngest).bytes });
    const app = await startGateway(env, { transport: 'kafka', clientId: GATEWAY, kafka, timeoutMs: env.BUS_TIMEOUT_MS, patterns: Object.values(Patterns) }, streams);
    // Fastify stops accepting connections and lets requests in flight finish before the bus and the store close.
    return { close: () => app.close() };
  },
});
