import { startMicroservice } from '@cinetrace/bootstrap';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { PromptServiceEnv } from './prompt-service.env';
import { PROMPT_SERVICE, PromptServiceModule } from './prompt-service.module';

/**
 * Starts prompt-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one).
 */
export function startPromptService(env: PromptServiceEnv, transport: KafkaOptions | CustomStrategy): Promise<INestMicroservice> {
  return startMicroservice(PROMPT_SERVICE, PromptServiceModule.register(env), transport, env.LOG_LEVEL);
}
