import { BullTaskWorker, BusSecretSource, SecretSource, TaskAttemptRunner, TaskMedia, TaskProcessor, TaskQueueLogger } from '@cinetrace/benchmark-tasks';
import { blobStoreFrom } from '@cinetrace/blob-store';
import { BusClient, createBusClient, KafkaStreamPublisher, StreamPublisher } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { kafkaConnectionFromEnv, redisConnection, requireVariables } from '@cinetrace/config';
import { resolveMediaTools, type MediaTools } from '@cinetrace/media-tools';
import { reportTaskQueueFrom } from '@cinetrace/metrics';
import { OutboundClient } from '@cinetrace/outbound';
import { ScoringThreads } from '@cinetrace/scorers';
import { BenchmarkWorkerEnv } from './benchmark-worker.env';

export const BENCHMARK_WORKER = 'benchmark-worker';

/**
 * How long a produce of task events and traces waits for more to join it. benchmark-service
 * gathers what arrives while it stores into its next transaction, so a short wait is enough
 * to put a quick task's `started`, trace and `finished` into one request (30 ms cost every
 * task that much more of its run's window, for no fuller transactions).
 */
const EVENT_LINGER_MS = 5;

export interface RunningWorker {
  /** Stops taking tasks, lets running ones finish (WORKER_SHUTDOWN_GRACE_MS), then releases its connections. */
  close(): Promise<void>;
  /** What its readiness depends on: the task queue (Redis) and the bus its events go to (Kafka). */
  checks: { queue(): Promise<boolean>; bus(): Promise<boolean> };
}

/** What a test (or another host) supplies instead of what the environment describes. */
export interface BenchmarkWorkerOverrides {
  /** Where task events go; by default Kafka at KAFKA_BROKERS, which also takes the processor's traces. */
  events?: StreamPublisher;
  processor?: TaskAttemptRunner;
  /** Where the processor gets secrets' values; by default project-service over Kafka at KAFKA_BROKERS. */
  secrets?: SecretSource;
  logger?: TaskQueueLogger;
}

/**
 * Starts a worker: takes task jobs from the queue in Redis, runs each attempt with the
 * shared TaskProcessor, and publishes traces and task events to Kafka. Resolves once it
 * is taking jobs; fails, naming what is missing or unreachable, otherwise.
 */
export async function startBenchmarkWorker(env: BenchmarkWorkerEnv, overrides: BenchmarkWorkerOverrides = {}): Promise<RunningWorker> {
  requireVariables(['REDIS_URL'], 'for benchmark-worker', { REDIS_URL: env.REDIS_URL });
  const releases: Array<() => Promise<void>> = [];
  const events = overrides.events ?? kafkaPublisher(env, releases);
  const processor = overrides.processor ?? taskProcessor(env, events, overrides.secrets, releases);
  const worker = new BullTaskWorker({
    redis: redisConnection(env.REDIS_URL!, env.REDIS_TLS_CA_FILE),
    processor,
    events,
    concurrency: env.WORKER_CONCURRENCY,
    prefix: env.QUEUE_PREFIX,
    lockDurationMs: env.WORKER_LOCK_MS,
    shutdownGraceMs: env.WORKER_SHUTDOWN_GRACE_MS,
    logger: overrides.logger,
  });
  // The worker first, so that the tasks it lets finish can still publish their events.
  const release = async () => {
    await worker.close();
    for (const close of releases) await close().catch(() => undefined);
  };
  try {
    await worker.start();
  } catch (err) {
    await release();
    throw err;
  }
  // Every worker reports the whole queue's depth: dashboards take the max over the workers, not the sum.
  reportTaskQueueFrom({ jobs: async () => (await worker.queueCounts()).jobs, workers: async () => (await worker.queueCounts()).workers });
  let closing: Promise<void> | undefined;
  return {
    close: () => (closing ??= release()),
    checks: { queue: () => worker.isReachable(), bus: () => events.isReachable() },
  };
}

function kafkaPublisher(env: BenchmarkWorkerEnv, releases: Array<() => Promise<void>>): KafkaStreamPublisher {
  requireVariables(['KAFKA_BROKERS'], 'for benchmark-worker', { KAFKA_BROKERS: env.KAFKA_BROKERS });
  const kafka = kafkaConnectionFromEnv(env);
  const publisher = new KafkaStreamPublisher(BENCHMARK_WORKER, kafka, { lingerMs: EVENT_LINGER_MS });
  releases.push(() => publisher.close());
  return publisher;
}

function taskProcessor(env: BenchmarkWorkerEnv, traces: StreamPublisher, secrets: SecretSource | undefined, releases: Array<() => Promise<void>>): TaskProcessor {
  const outbound = new OutboundClient({ allowPrivate: env.OUTBOUND_ALLOW_PRIVATE });
  releases.push(() => outbound.close());
  const scoring = new ScoringThreads();
  releases.push(() => scoring.close());
  const bus = busClient(env, releases);
  let tools: MediaTools | undefined;
  // ffmpeg is looked up at the first video scorer: a missing one fails that score, not the boot (reportMediaTools says so at boot).
  const media = new TaskMedia({ bus, blobs: blobStoreFrom(env), outbound, tools: () => (tools ??= resolveMediaTools(env)), maxBytes: env.MEDIA_MAX_BYTES });
  return new TaskProcessor({ outbound, traces, secrets: secrets ?? new BusSecretSource(bus), scoring, media });
}

/**
 * Requests over Kafka: secrets from project-service (sealed to a key of each request, so the log
 * holds only ciphertext), media rows from media-service, another run's output from benchmark-service.
 */
function busClient(env: BenchmarkWorkerEnv, releases: Array<() => Promise<void>>): BusClient {
  requireVariables(['KAFKA_BROKERS'], 'for benchmark-worker', { KAFKA_BROKERS: env.KAFKA_BROKERS });
  const kafka = kafkaConnectionFromEnv(env);
  const patterns = [Patterns.SecretResolve, Patterns.MediaGet, Patterns.MediaBlob, Patterns.TaskOutput];
  const bus = createBusClient({ transport: 'kafka', clientId: `${BENCHMARK_WORKER}-client`, kafka, timeoutMs: env.BUS_TIMEOUT_MS, patterns });
  releases.push(() => bus.onApplicationShutdown());
  return bus;
}
