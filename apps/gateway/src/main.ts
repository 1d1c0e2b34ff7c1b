import { KafkaStreamPublisher } from '@cinetrace/bus';
import { requireVariables, validateEnv } from '@cinetrace/config';
import { Patterns } from '@cinetrace/contracts';
import { GatewayEnv } from './gateway.env';
import { GATEWAY } from './gateway.module';
import { startGateway } from './start-gateway';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(GatewayEnv);
  const kafka = { brokers: env.KAFKA_BROKERS!.split(','), maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS };
  const streams = new KafkaStreamPublisher(GATEWAY, kafka);
  const app = await startGateway(
    env,
    { transport: 'kafka', clientId: GATEWAY, kafka, timeoutMs: env.BUS_TIMEOUT_MS, patterns: Object.values(Patterns) },
    streams,
  );
  app.enableShutdownHooks();
}

main().catch((err: Error) => {
  console.error(`gateway failed to start: ${err.message}`);
  process.exit(1);
});
