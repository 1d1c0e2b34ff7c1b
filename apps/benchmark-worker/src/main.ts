import { requireVariables, validateEnv } from '@cinetrace/config';
import { SHUTDOWN_DEADLINE_MS, superviseProcess } from '@cinetrace/health';
import { bootLogger, withoutUrlCredentials } from '@cinetrace/logging';
import { collectProcessMetrics } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';
import { BenchmarkWorkerEnv } from './benchmark-worker.env';
import { BENCHMARK_WORKER, startBenchmarkWorker } from './start-benchmark-worker';

/** Past the grace period, running tasks get this long to be handed back, and the connections to close. */
const HANDOVER_AND_CLOSE_MS = 3500;

async function main(): Promise<void> {
  requireVariables(['REDIS_URL', 'KAFKA_BROKERS'], 'in the distributed mode');
  const env = validateEnv(BenchmarkWorkerEnv);
  // Served on HEALTH_PORT's /metrics with the work metrics of this app.
  collectProcessMetrics(BENCHMARK_WORKER);
  // Every Nest Logger of the process (worker, Kafka publisher) writes the apps' JSON lines, without stack traces.
  Logger.overrideLogger(bootLogger(BENCHMARK_WORKER, env.LOG_LEVEL));
  const worker = await startBenchmarkWorker(env);
  // A first signal lets running tasks finish; a second ends the process at once (other workers then take its tasks over).
  await superviseProcess({
    logger: new Logger(BENCHMARK_WORKER),
    healthPort: env.HEALTH_PORT,
    checks: worker.checks,
    close: () => worker.close(),
    deadlineMs: Math.max(SHUTDOWN_DEADLINE_MS, env.WORKER_SHUTDOWN_GRACE_MS + HANDOVER_AND_CLOSE_MS),
  });
}

main().catch((err: Error) => {
  console.error(`${BENCHMARK_WORKER} failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
