import { kafkaServerOptions } from '@cinetrace/bus';
import { requireVariables, validateEnv } from '@cinetrace/config';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BENCHMARK_SERVICE } from './benchmark-service.module';
import { startBenchmarkService } from './start-benchmark-service';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(BenchmarkServiceEnv);
  const kafka = { brokers: env.KAFKA_BROKERS!.split(','), maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS };
  const app = await startBenchmarkService(env, kafkaServerOptions(BENCHMARK_SERVICE, kafka));
  app.enableShutdownHooks();
}

main().catch((err: Error) => {
  console.error(`benchmark-service failed to start: ${err.message}`);
  process.exit(1);
});
