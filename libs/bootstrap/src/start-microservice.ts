import type { LogLevel } from '@cinetrace/config';
import { bootLogger, useAppLogger } from '@cinetrace/logging';
import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';

/**
 * Starts a service as a Nest microservice on `transport`: Kafka (distributed) or an
 * in-process strategy (all-in-one). It logs as every app does (bootLogger until its
 * container exists, then the container's), and resolves once it is listening.
 */
export async function startMicroservice(name: string, module: DynamicModule, transport: KafkaOptions | CustomStrategy, logLevel: LogLevel): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(module, { ...transport, logger: bootLogger(name, logLevel), abortOnError: false });
  useAppLogger(app);
  await app.listen();
  return app;
}
