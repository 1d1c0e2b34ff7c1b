import { requireVariables, validateEnv } from '@cinetrace/config';
import { bootLogger } from '@cinetrace/logging';
import { Logger } from '@nestjs/common';
import { BenchmarkWorkerEnv } from './benchmark-worker.env';
import { BENCHMARK_WORKER, startBenchmarkWorker } from './start-benchmark-worker';

async function main(): Promise<void> {
  requireVariables(['REDIS_URL', 'KAFKA_BROKERS'], 'in the distributed mode');
  const env = validateEnv(BenchmarkWorkerEnv);
  // Every Nest Logger of the process (worker, Kafka publisher) writes the apps' JSON lines, without stack traces.
  const logger = bootLogger(BENCHMARK_WORKER, env.LOG_LEVEL);
  Logger.overrideLogger(logger);
  const worker = await startBenchmarkWorker(env);

  // A first signal stops gracefully; the listeners are gone after it, so a second one ends the process at once
  // (its running tasks are then taken over by other workers once their locks expire).
  const stop = (signal: string) => {
    logger.log(`${signal}: finishing running tasks, then stopping`, BENCHMARK_WORKER);
    worker.close().then(
      () => process.exit(0),
      (err: Error) => {
        logger.error(`Stopping failed: ${err.message}`, BENCHMARK_WORKER);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  console.error(`${BENCHMARK_WORKER} failed to start: ${err.message}`);
  process.exit(1);
});
