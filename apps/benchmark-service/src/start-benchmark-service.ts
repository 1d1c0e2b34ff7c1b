import { startMicroservice } from '@cinetrace/bootstrap';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BENCHMARK_SERVICE, BenchmarkExecution, BenchmarkServiceModule } from './benchmark-service.module';

/** Starts benchmark-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one). */
export function startBenchmarkService(env: BenchmarkServiceEnv, transport: KafkaOptions | CustomStrategy, execution: BenchmarkExecution): Promise<INestMicroservice> {
  return startMicroservice(BENCHMARK_SERVICE, BenchmarkServiceModule.register(env, execution), transport, env.LOG_LEVEL);
}
