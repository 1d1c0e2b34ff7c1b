import { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { bootLogger, withStartupAtDebug } from '@cinetrace/logging';
import { Logger } from 'nestjs-pino';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BENCHMARK_SERVICE, BenchmarkExecution, BenchmarkServiceModule } from './benchmark-service.module';

/** Starts benchmark-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one). */
export async function startBenchmarkService(
  env: BenchmarkServiceEnv,
  transport: KafkaOptions | CustomStrategy,
  execution: BenchmarkExecution,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(BenchmarkServiceModule.register(env, execution), {
    ...transport,
    logger: bootLogger(BENCHMARK_SERVICE, env.LOG_LEVEL),
    abortOnError: false,
  });
  app.useLogger(withStartupAtDebug(app.get(Logger)));
  await app.listen();
  return app;
}
