import { startMicroservice } from '@cinetrace/bootstrap';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { ProjectServiceEnv } from './project-service.env';
import { PROJECT_SERVICE, ProjectServiceModule } from './project-service.module';

/** Starts project-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one). */
export function startProjectService(env: ProjectServiceEnv, transport: KafkaOptions | CustomStrategy): Promise<INestMicroservice> {
  return startMicroservice(PROJECT_SERVICE, ProjectServiceModule.register(env), transport, env.LOG_LEVEL);
}
