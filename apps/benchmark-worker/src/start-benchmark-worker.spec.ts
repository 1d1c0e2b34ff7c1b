import { AttemptOutcome, BullTaskQueue, TaskAttemptRunner } from '@cinetrace/benchmark-tasks';
import { StreamPublisher, StreamRecord } from '@cinetrace/bus';
import { EnvironmentError, validateEnv } from '@cinetrace/config';
import { TaskEvent, TaskJob } from '@cinetrace/contracts';
import { aTaskJob, dropRedisPrefix, waitFor } from '@cinetrace/testing';
import { randomUUID } from 'node:crypto';
import { BenchmarkWorkerEnv } from './benchmark-worker.env';
import { startBenchmarkWorker } from './start-benchmark-worker';

// Real Redis under a prefix of its own (deleted afterwards); the processor and the event stream are fakes.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('BenchmarkWorkerEnv', () => {
  it('applies the documented defaults', () => {
    expect(validateEnv(BenchmarkWorkerEnv, {})).toMatchObject({
      WORKER_CONCURRENCY: 64,
      WORKER_LOCK_MS: 10_000,
      WORKER_SHUTDOWN_GRACE_MS: 6000,
      OUTBOUND_ALLOW_PRIVATE: false,
      QUEUE_PREFIX: 'cinetrace',
      LOG_LEVEL: 'info',
    });
  });

  it('names every wrong variable, without its value', () => {
    let error: EnvironmentError | undefined;
    try {
      validateEnv(BenchmarkWorkerEnv, {
        REDIS_URL: 'http://user:s3cret@redis',
        WORKER_CONCURRENCY: '257',
        WORKER_LOCK_MS: '10',
        OUTBOUND_ALLOW_PRIVATE: '1',
      });
    } catch (err) {
      error = err as EnvironmentError;
    }
    expect(error?.problems.map((p) => p.split(':')[0]).sort()).toEqual(['OUTBOUND_ALLOW_PRIVATE', 'REDIS_URL', 'WORKER_CONCURRENCY', 'WORKER_LOCK_MS']);
    expect(error?.message).not.toContain('s3cret');
  });
});

describe('startBenchmarkWorker', () => {
  let prefix: string;

  beforeEach(() => {
    prefix = `cinetrace-test-${process.pid}-${randomUUID().slice(0, 8)}`;
  });

  afterEach(async () => {
    await dropRedisPrefix(REDIS_URL, prefix);
  });

  function env(vars: Record<string, string>): BenchmarkWorkerEnv {
    return validateEnv(BenchmarkWorkerEnv, { QUEUE_PREFIX: prefix, ...vars });
  }

  it('refuses to start without Redis, or without Kafka when no event stream is given, naming the variable', async () => {
    await expect(startBenchmarkWorker(env({ KAFKA_BROKERS: 'localhost:9092' }))).rejects.toThrow('REDIS_URL: required');
    await expect(startBenchmarkWorker(env({ REDIS_URL }))).rejects.toThrow('KAFKA_BROKERS: required');
  });

  it('runs the tasks enqueued under its prefix and reports them, and takes no more once closed', async () => {
    const events: TaskEvent[] = [];
    const stream = new (class extends StreamPublisher {
      async publish<T>(_topic: string, records: StreamRecord<T>[]) {
        events.push(...records.map((r) => r.value as TaskEvent));
      }
      async isReachable() {
        return true;
      }
    })();
    const ran: string[] = [];
    const processor: TaskAttemptRunner = {
      async attempt(job: TaskJob): Promise<AttemptOutcome> {
        ran.push(job.taskId);
        return { output: 'a video', usage: null, costUsd: null, scores: [], startedAt: 1, finishedAt: 2, recorded: Promise.resolve() };
      },
    };
    const queue = new BullTaskQueue(REDIS_URL, { prefix, logger: quiet });
    const worker = await startBenchmarkWorker(env({ REDIS_URL, WORKER_CONCURRENCY: '2' }), { events: stream, processor, logger: quiet });
    try {
      await queue.enqueue([aTaskJob('t1', { maxAttempts: 1 }), aTaskJob('t2', { maxAttempts: 1 })]);
      await waitFor(() => expect(events.filter((e) => e.kind === 'finished')).toHaveLength(2));
      expect(ran.sort()).toEqual(['t1', 't2']);

      await worker.close();
      await queue.enqueue([aTaskJob('t3', { maxAttempts: 1 })]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ran).not.toContain('t3');
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
