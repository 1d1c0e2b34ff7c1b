import { busServiceProcess, runServiceProcess } from '@cinetrace/bootstrap';
import { kafkaServerOptions } from '@cinetrace/bus';
import { redisConnection } from '@cinetrace/config';
import { reportMediaTools } from '@cinetrace/media-tools';
import { Logger } from '@nestjs/common';
import { BullProbeQueue } from './media/bull-probe-queue';
import { MediaServiceEnv } from './media-service.env';
import { MEDIA_SERVICE } from './media-service.module';
import { startMediaService } from './start-media-service';

runServiceProcess({
  name: MEDIA_SERVICE,
  env: MediaServiceEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL'],
  start: async (env, kafka) => {
    // Probes wait in Redis (BullMQ `media-jobs`): one accepted before a restart still runs after it.
    const probes = new BullProbeQueue(redisConnection(env.REDIS_URL!, env.REDIS_TLS_CA_FILE), env.QUEUE_PREFIX, env.PROBE_CONCURRENCY, env.PROBE_LOCK_MS);
    const app = await startMediaService(env, kafkaServerOptions(MEDIA_SERVICE, kafka), probes);
    // Which ffprobe the probes will run, and the filters its ffmpeg lacks (in the background: it runs ffmpeg twice).
    void reportMediaTools(new Logger('media'), env);
    return busServiceProcess(MEDIA_SERVICE, app, kafka, { queue: () => probes.isReachable() });
  },
});
