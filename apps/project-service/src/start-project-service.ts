import { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { BusClientConfig } from '@cinetrace/bus';
import { bootLogger, withStartupAtDebug } from '@cinetrace/logging';
import { Logger } from 'nestjs-pino';
import { ProjectServiceEnv } from './project-service.env';
import { PROJECT_SERVICE, ProjectServiceModule } from './project-service.module';

/** Starts project-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one). */
export async function startProjectService(
  env: ProjectServiceEnv,
  transport: KafkaOptions | CustomStrategy,
  bus: BusClientConfig,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(ProjectServiceModule.register(env, bus), {
    ...transport,
    logger: bootLogger(PROJECT_SERVICE, env.LOG_LEVEL),
    abortOnError: false,
  });
  app.useLogger(withStartupAtDebug(app.get(Logger)));
  await app.listen();
  return app;
}
