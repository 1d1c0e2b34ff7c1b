import { startMicroservice } from '@cinetrace/bootstrap';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { MediaServiceEnv } from './media-service.env';
import { MEDIA_SERVICE, MediaServiceModule, type MediaServiceWiring } from './media-service.module';

/**
 * Starts media-service on the given transport: Kafka (distributed) or an in-process strategy
 * (all-in-one). `wiring` holds the queues its probe, storyboard and copy jobs go through and
 * that it drains, and the trace stream the copies are written back through.
 */
export function startMediaService(env: MediaServiceEnv, transport: KafkaOptions | CustomStrategy, wiring: MediaServiceWiring): Promise<INestMicroservice> {
  return startMicroservice(MEDIA_SERVICE, MediaServiceModule.register(env, wiring), transport, env.LOG_LEVEL);
}
