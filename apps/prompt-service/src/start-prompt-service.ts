import type { BusClientConfig } from '@cinetrace/bus';
import { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { bootLogger, withStartupAtDebug } from '@cinetrace/logging';
import { Logger } from 'nestjs-pino';
import { PromptServiceEnv } from './prompt-service.env';
import { PROMPT_SERVICE, PromptServiceModule } from './prompt-service.module';

/**
 * Starts prompt-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one).
 * `bus` is how it asks benchmark-service about runs (a release's gate).
 */
export async function startPromptService(
  env: PromptServiceEnv,
  transport: KafkaOptions | CustomStrategy,
  bus: BusClientConfig,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(PromptServiceModule.register(env, bus), {
    ...transport,
    logger: bootLogger(PROMPT_SERVICE, env.LOG_LEVEL),
    abortOnError: false,
  });
  app.useLogger(withStartupAtDebug(app.get(Logger)));
  await app.listen();
  return app;
}
