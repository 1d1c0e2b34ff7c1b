import { startMicroservice } from '@cinetrace/bootstrap';
import type { BusClientConfig } from '@cinetrace/bus';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { PromptServiceEnv } from './prompt-service.env';
import { PROMPT_SERVICE, PromptServiceModule } from './prompt-service.module';

/**
 * Starts prompt-service on the given transport: Kafka (distributed) or an in-process strategy (all-in-one).
 * `bus`: its client on the bus (it asks no other service today).
 */
export function startPromptService(env: PromptServiceEnv, transport: KafkaOptions | CustomStrategy, bus: BusClientConfig): Promise<INestMicroservice> {
  return startMicroservice(PROMPT_SERVICE, PromptServiceModule.register(env, bus), transport, env.LOG_LEVEL);
}
