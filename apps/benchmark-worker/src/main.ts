import { runServiceProcess } from '@cinetrace/bootstrap';
import { SHUTDOWN_DEADLINE_MS } from '@cinetrace/health';
import { bootLogger } from '@cinetrace/logging';
import { reportMediaTools } from '@cinetrace/media-tools';
import { Logger } from '@nestjs/common';
import { BenchmarkWorkerEnv } from './benchmark-worker.env';
import { BENCHMARK_WORKER, startBenchmarkWorker } from './start-benchmark-worker';

/** Past the grace period, running tasks get this long to be handed back, and the connections to close. */
const HANDOVER_AND_CLOSE_MS = 3500;

runServiceProcess({
  name: BENCHMARK_WORKER,
  env: BenchmarkWorkerEnv,
  requires: ['REDIS_URL', 'KAFKA_BROKERS'],
  start: async (env) => {
    // No Nest container here: every Nest Logger of the process (worker, Kafka publisher) writes the apps' JSON lines, without stack traces.
    Logger.overrideLogger(bootLogger(BENCHMARK_WORKER, env.LOG_LEVEL));
    const worker = await startBenchmarkWorker(env);
    // The video scorers will run ffmpeg here: say which one, and what it lacks (in the background).
    void reportMediaTools(new Logger('media'), env);
    // A first signal lets running tasks finish; a second ends the process at once (other workers then take its tasks over).
    return { checks: worker.checks, close: () => worker.close(), deadlineMs: Math.max(SHUTDOWN_DEADLINE_MS, env.WORKER_SHUTDOWN_GRACE_MS + HANDOVER_AND_CLOSE_MS) };
  },
});
