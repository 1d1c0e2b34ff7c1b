import { busServiceProcess, runServiceProcess } from '@cinetrace/bootstrap';
import { kafkaServerOptions } from '@cinetrace/bus';
import { redisConnection } from '@cinetrace/config';
import { Patterns } from '@cinetrace/contracts';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BENCHMARK_SERVICE } from './benchmark-service.module';
import { BullMqTaskQueue } from './execution/bull-task-queue.adapter';
import { startBenchmarkService } from './start-benchmark-service';

runServiceProcess({
  name: BENCHMARK_SERVICE,
  env: BenchmarkServiceEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL'],
  start: async (env, kafka) => {
    const queue = new BullMqTaskQueue(redisConnection(env.REDIS_URL!, env.REDIS_TLS_CA_FILE), env.QUEUE_PREFIX);
    const app = await startBenchmarkService(env, kafkaServerOptions(BENCHMARK_SERVICE, kafka), {
      queue,
      events: {
        kind: 'kafka',
        connection: { ...kafka, maxWaitTimeInMs: env.KAFKA_STREAM_MAX_WAIT_MS },
        clientId: `${BENCHMARK_SERVICE}-events`,
        partitions: env.TASK_EVENT_PARTITIONS,
        writeLingerMs: env.KAFKA_STREAM_WRITE_LINGER_MS,
      },
      bus: {
        transport: 'kafka',
        clientId: `${BENCHMARK_SERVICE}-client`,
        kafka,
        timeoutMs: env.BUS_TIMEOUT_MS,
        patterns: [Patterns.PromptGet, Patterns.SecretUsesCheck, Patterns.MediaAnnotationCounts, Patterns.EvaluationsRecord, Patterns.SecretReferencesRecord],
      },
    });
    return busServiceProcess(BENCHMARK_SERVICE, app, kafka, { queue: () => queue.isReachable() });
  },
});
