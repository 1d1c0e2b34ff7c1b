import { BenchmarkServiceEnv, InProcessTaskQueue, startBenchmarkService } from '@cinetrace/benchmark-service';
import { BusSecretSource, TaskMedia, TaskProcessor } from '@cinetrace/benchmark-tasks';
import { blobStoreFrom } from '@cinetrace/blob-store';
import { createBusClient, InProcessBroker, InProcessServer, InProcessStreams } from '@cinetrace/bus';
import { tuneHeap, validateEnv } from '@cinetrace/config';
import { GatewayEnv, httpPortOf, otlpGrpcPortOf, startGateway } from '@cinetrace/gateway';
import { shutDownGracefullyOnSignal } from '@cinetrace/health';
import { announceReady, setLogProcessName, withoutUrlCredentials } from '@cinetrace/logging';
import { InProcessJobQueue } from '@cinetrace/job-queue';
import { COPY_CONCURRENCY, MediaServiceEnv, mediaJobSettings, perProjectSlots, startMediaService } from '@cinetrace/media-service';
import { reportMediaTools, resolveMediaTools, type MediaTools } from '@cinetrace/media-tools';
import { OutboundClient } from '@cinetrace/outbound';
import { ProjectServiceEnv, startProjectService } from '@cinetrace/project-service';
import { PromptServiceEnv, startPromptService } from '@cinetrace/prompt-service';
import { ScoringThreads } from '@cinetrace/scorers';
import { MEDIA_HANDOFF_TIMEOUT_MS, startTraceIngest, TraceIngestEnv } from '@cinetrace/trace-ingest';
import { reportIngestLagFrom, reportTaskQueueFrom } from '@cinetrace/metrics';
import { MEDIA_COPY_QUEUE, MEDIA_QUEUE, STORYBOARD_QUEUE, Topics } from '@cinetrace/contracts';
import { Logger } from '@nestjs/common';
import { join, resolve } from 'node:path';

/**
 * The whole service in one process: every app's own Nest application, joined by the
 * in-process bus instead of Kafka, each keeping its data in its own SQLite file under
 * DATA_DIR. Services start first so the gateway never routes to a missing handler.
 */
async function main(): Promise<void> {
  const gatewayEnv = validateEnv(GatewayEnv);
  // Every app's environment has it; the gateway's is read first.
  tuneHeap(gatewayEnv, 'all-in-one');
  const projectEnv = validateEnv(ProjectServiceEnv);
  const promptEnv = validateEnv(PromptServiceEnv);
  const traceEnv = validateEnv(TraceIngestEnv);
  const benchmarkEnv = validateEnv(BenchmarkServiceEnv);
  const mediaEnv = validateEnv(MediaServiceEnv);
  const broker = new InProcessBroker();
  const streams = new InProcessStreams();
  setLogProcessName('all-in-one');
  // The in-process stream's queue is the lag: records published and not stored yet. Their bytes are
  // never measured (records are handed over as objects, not serialized), so no bytes gauge here.
  reportIngestLagFrom({ records: () => streams.pendingRecords(Topics.TraceIngest), bytes: () => undefined });

  // Tasks run in this process with the worker's own processor; their traces and events take the in-process streams.
  // Secrets are asked of project-service over the in-process bus, sealed as in the distributed mode; the video
  // scorers ask media-service for media rows and read the bytes from the same media storage it uses.
  const outbound = new OutboundClient({ allowPrivate: benchmarkEnv.OUTBOUND_ALLOW_PRIVATE });
  const workerBus = createBusClient({ transport: 'in-process', broker, timeoutMs: benchmarkEnv.BUS_TIMEOUT_MS });
  let mediaTools: MediaTools | undefined;
  const taskQueue = new InProcessTaskQueue(
    new TaskProcessor({
      outbound,
      traces: streams,
      secrets: new BusSecretSource(workerBus),
      scoring: new ScoringThreads(),
      media: new TaskMedia({
        bus: workerBus,
        blobs: blobStoreFrom(mediaEnv),
        outbound,
        tools: () => (mediaTools ??= resolveMediaTools(mediaEnv)),
        maxBytes: mediaEnv.MEDIA_MAX_BYTES,
      }),
    }),
    streams,
  );
  // The in-process runner is the one worker; its tasks are the queue.
  reportTaskQueueFrom({ jobs: async () => taskQueue.jobCounts(), workers: async () => 1 });

  const services = [
    await startProjectService(projectEnv, { strategy: new InProcessServer(broker) }),
    await startPromptService(promptEnv, { strategy: new InProcessServer(broker) }),
    await startTraceIngest(
      traceEnv,
      { strategy: new InProcessServer(broker) },
      { kind: 'in-process', streams },
      { transport: 'in-process', broker, timeoutMs: MEDIA_HANDOFF_TIMEOUT_MS },
    ),
    await startBenchmarkService(
      benchmarkEnv,
      { strategy: new InProcessServer(broker) },
      {
        queue: taskQueue,
        events: { kind: 'in-process', streams },
        bus: { transport: 'in-process', broker, timeoutMs: benchmarkEnv.BUS_TIMEOUT_MS },
      },
    ),
    // Probes run in this process; media still pending at a restart is probed again by media-service's sweep.
    // Copies too; a copy still pending at a restart is queued again by the sweep, and its write-back goes through the trace stream.
    await startMediaService(
      mediaEnv,
      { strategy: new InProcessServer(broker) },
      {
        probes: new InProcessJobQueue(
          mediaJobSettings(MEDIA_QUEUE, 'Probe', mediaEnv.PROBE_CONCURRENCY, perProjectSlots(mediaEnv.PROBE_CONCURRENCY, mediaEnv.PROBE_PROJECT_CONCURRENCY)),
        ),
        // A storyboard lost with the process is queued again by its next request.
        storyboards: new InProcessJobQueue(mediaJobSettings(STORYBOARD_QUEUE, 'Storyboard', mediaEnv.STORYBOARD_CONCURRENCY)),
        // Copies (downloads) take turns between projects without a cap.
        copies: new InProcessJobQueue(mediaJobSettings(MEDIA_COPY_QUEUE, 'Copy', COPY_CONCURRENCY)),
        traces: streams,
      },
    ),
  ];
  const gateway = await startGateway(gatewayEnv, { transport: 'in-process', broker, timeoutMs: gatewayEnv.BUS_TIMEOUT_MS }, streams);

  announceReady(
    {
      mode: 'all-in-one',
      host: gatewayEnv.HOST,
      port: httpPortOf(gateway),
      otlpGrpcPort: otlpGrpcPortOf(gateway),
      keyFile: join(resolve(projectEnv.DATA_DIR), 'bootstrap-api-key'),
      keyFromEnvironment: Boolean(projectEnv.BOOTSTRAP_API_KEY),
    },
    (line) => new Logger('all-in-one').log(line),
  );
  // Which ffmpeg and ffprobe media work will use, and the filters it lacks (in the background: it runs ffmpeg twice).
  void reportMediaTools(new Logger('media'), mediaEnv);

  // Stop taking requests first, then let the services finish (tasks in hand resume at the next start) and close their stores.
  shutDownGracefullyOnSignal({
    logger: new Logger('all-in-one'),
    close: async () => {
      await gateway.close();
      for (const service of services.reverse()) await service.close();
    },
  });
}

main().catch((err: Error) => {
  console.error(`cinetrace failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
