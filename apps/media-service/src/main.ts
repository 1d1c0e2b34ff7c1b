import { busServiceProcess, runServiceProcess } from '@cinetrace/bootstrap';
import { KafkaStreamPublisher, kafkaServerOptions } from '@cinetrace/bus';
import { redisConnection } from '@cinetrace/config';
import { MEDIA_COPY_QUEUE, MEDIA_QUEUE, STORYBOARD_QUEUE } from '@cinetrace/contracts';
import { BullJobQueue } from '@cinetrace/job-queue';
import { reportMediaTools } from '@cinetrace/media-tools';
import { Logger } from '@nestjs/common';
import { mediaJobSettings } from './media/media-jobs';
import { MediaServiceEnv, perProjectSlots } from './media-service.env';
import { COPY_CONCURRENCY, MEDIA_SERVICE } from './media-service.module';
import { startMediaService } from './start-media-service';

runServiceProcess({
  name: MEDIA_SERVICE,
  env: MediaServiceEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL'],
  start: async (env, kafka) => {
    // Probes, storyboards and copies wait in Redis (BullMQ `media-jobs`, `media-storyboards`, `media-copies`): one accepted before a restart still runs after it.
    const redis = redisConnection(env.REDIS_URL!, env.REDIS_TLS_CA_FILE);
    // Shared fairly between projects, one project's probes in flight capped at its share of the slots.
    const inRedis = { redis, prefix: env.QUEUE_PREFIX, lockMs: env.PROBE_LOCK_MS };
    const probes = new BullJobQueue({
      ...mediaJobSettings(MEDIA_QUEUE, 'Probe', env.PROBE_CONCURRENCY, perProjectSlots(env.PROBE_CONCURRENCY, env.PROBE_PROJECT_CONCURRENCY)),
      ...inRedis,
      jobName: 'probe',
    });
    // A scene detection runs for as long as the video: never inside a bus request.
    const storyboards = new BullJobQueue({ ...mediaJobSettings(STORYBOARD_QUEUE, 'Storyboard', env.STORYBOARD_CONCURRENCY), ...inRedis, jobName: 'storyboard' });
    // Copies (downloads, no CPU to speak of) take turns between projects without a cap: one project's copies may use every slot.
    const copies = new BullJobQueue({ ...mediaJobSettings(MEDIA_COPY_QUEUE, 'Copy', COPY_CONCURRENCY), ...inRedis, jobName: 'copy' });
    // Copies are written back into their traces as records of the trace stream (trace-ingest stores them).
    const traces = new KafkaStreamPublisher(MEDIA_SERVICE, kafka);
    const app = await startMediaService(env, kafkaServerOptions(MEDIA_SERVICE, kafka), { probes, storyboards, copies, traces });
    // Which ffprobe the probes will run, and the filters its ffmpeg lacks (in the background: it runs ffmpeg twice).
    void reportMediaTools(new Logger('media'), env);
    return busServiceProcess(MEDIA_SERVICE, app, kafka, { queue: () => probes.isReachable() });
  },
});
