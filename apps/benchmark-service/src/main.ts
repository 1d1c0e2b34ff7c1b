import { KafkaProbe, kafkaServerOptions } from '@cinetrace/bus';
import { kafkaConnectionFromEnv, redisConnection, requireVariables, validateEnv } from '@cinetrace/config';
import { superviseProcess } from '@cinetrace/health';
import { withoutUrlCredentials } from '@cinetrace/logging';
import { storeAnswers } from '@cinetrace/persistence';
import { collectProcessMetrics } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Patterns } from '@cinetrace/contracts';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BENCHMARK_SERVICE } from './benchmark-service.module';
import { BullMqTaskQueue } from './execution/bull-task-queue.adapter';
import { startBenchmarkService } from './start-benchmark-service';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL'], 'in the distributed mode');
  const env = validateEnv(BenchmarkServiceEnv);
  // Served on HEALTH_PORT's /metrics with the work metrics of this app.
  collectProcessMetrics(BENCHMARK_SERVICE);
  const kafka = kafkaConnectionFromEnv(env);
  const queue = new BullMqTaskQueue(redisConnection(env.REDIS_URL!, env.REDIS_TLS_CA_FILE), env.QUEUE_PREFIX);
  const app = await startBenchmarkService(env, kafkaServerOptions(BENCHMARK_SERVICE, kafka), {
    queue,
    events: { kind: 'kafka', connection: { ...kafka, maxWaitTimeInMs: env.KAFKA_STREAM_MAX_WAIT_MS }, clientId: `${BENCHMARK_SERVICE}-events`, partitions: env.TASK_EVENT_PARTITIONS },
    bus: { transport: 'kafka', clientId: `${BENCHMARK_SERVICE}-client`, kafka, timeoutMs: env.BUS_TIMEOUT_MS, patterns: [Patterns.PromptGet, Patterns.SecretUsesCheck] },
  });
  const kafkaProbe = new KafkaProbe(BENCHMARK_SERVICE, kafka);
  await superviseProcess({
    logger: new Logger(BENCHMARK_SERVICE),
    healthPort: env.HEALTH_PORT,
    checks: { store: storeAnswers(app.get(DataSource)), bus: kafkaProbe.reachable, queue: () => queue.isReachable() },
    // Nest stops the consumers (each finishes and commits the batch in hand), then closes the store.
    close: () => app.close().finally(() => kafkaProbe.close()),
  });
}

main().catch((err: Error) => {
  console.error(`benchmark-service failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
