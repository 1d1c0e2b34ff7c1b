import { startMicroservice } from '@cinetrace/bootstrap';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomStrategy, KafkaOptions } from '@nestjs/microservices';
import { ProbeQueue } from './media/probe-queue';
import { MediaServiceEnv } from './media-service.env';
import { MEDIA_SERVICE, MediaServiceModule } from './media-service.module';

/**
 * Starts media-service on the given transport: Kafka (distributed) or an in-process strategy
 * (all-in-one). `probes` is the queue its probe jobs go through and that it drains.
 */
export function startMediaService(env: MediaServiceEnv, transport: KafkaOptions | CustomStrategy, probes: ProbeQueue): Promise<INestMicroservice> {
  return startMicroservice(MEDIA_SERVICE, MediaServiceModule.register(env, probes), transport, env.LOG_LEVEL);
}
