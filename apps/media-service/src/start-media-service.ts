import { startMicroservice } from '@cinetrace/bootstrap';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { MediaServiceEnv } from './media-service.env';
import { MEDIA_SERVICE, MediaServiceModule, type MediaJobQueues } from './media-service.module';

/**
 * Starts media-service on the given transport: Kafka (distributed) or an in-process strategy
 * (all-in-one). `queues` are the queues its probe and storyboard jobs go through and that it drains.
 */
export function startMediaService(env: MediaServiceEnv, transport: KafkaOptions | CustomStrategy, queues: MediaJobQueues): Promise<INestMicroservice> {
  return startMicroservice(MEDIA_SERVICE, MediaServiceModule.register(env, queues), transport, env.LOG_LEVEL);
}
