import { expect } from '@jest/globals';
import { StreamPublisher, StreamRecord } from '@cinetrace/bus';
import { DomainError, ErrorCode, TASK_QUEUE, TaskEvent, TaskFinishedEvent, TaskJob, TaskTopics } from '@cinetrace/contracts';
import { aTaskJob, dropRedisPrefix, waitFor } from '@cinetrace/testing';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { AttemptOutcome, TaskAttemptError } from '../processor';
import { BullTaskQueue } from './bull-task-queue';
import { BullTaskWorker, BullTaskWorkerDeps, TaskAttemptRunner } from './bull-task-worker';

// Real Redis; every test under a prefix of its own, deleted afterwards. The processor
// and the event stream are fakes.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

jest.setTimeout(20_000);

/** The outcome a target that echoes its input would give. */
function echo(job: TaskJob): AttemptOutcome {
  return {
    output: { echoed: job.item.input },
    usage: { tokens: 7 },
    costUsd: 0.01,
    scores: [{ scorer: 'exact', score: 1, passed: true, details: null, error: null }],
    startedAt: 1000,
    finishedAt: 2000,
    recorded: Promise.resolve(),
  };
}

type Behaviour = (job: TaskJob, attempt: number, signal: AbortSignal) => Promise<AttemptOutcome>;

class FakeProcessor implements TaskAttemptRunner {
  readonly calls: Array<{ taskId: string; attempt: number; signal: AbortSignal }> = [];
  constructor(private readonly behave: Behaviour) {}

  attempt(job: TaskJob, attempt: number, signal?: AbortSignal): Promise<AttemptOutcome> {
    const s = signal ?? new AbortController().signal;
    this.calls.push({ taskId: job.taskId, attempt, signal: s });
    return this.behave(job, attempt, s);
  }
}

const succeeds: Behaviour = async (job) => echo(job);
/** A target that hangs until the attempt is aborted. */
const hangs: Behaviour = (_job, _attempt, signal) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new TaskAttemptError('aborted', true)), { once: true }));

/** The event stream: records what reached it, and can be made to refuse some events. */
class RecordingStream extends StreamPublisher {
  readonly events: TaskEvent[] = [];
  readonly records: Array<{ topic: string; key: string }> = [];
  private refusals: Array<(event: TaskEvent) => boolean> = [];

  refuseOnce(which: (event: TaskEvent) => boolean): void {
    this.refusals.push(which);
  }

  async publish<T>(topic: string, records: StreamRecord<T>[]): Promise<void> {
    for (const record of records) {
      const event = record.value as TaskEvent;
      const refusal = this.refusals.findIndex((which) => which(event));
      if (refusal >= 0) {
        this.refusals.splice(refusal, 1);
        throw new DomainError(ErrorCode.Unavailable, 'The event stream is unreachable');
      }
      this.records.push({ topic, key: record.key });
      this.events.push(event);
    }
  }

  async isReachable(): Promise<boolean> {
    return true;
  }

  of(taskId: string): string[] {
    return this.events.filter((e) => e.taskId === taskId).map((e) => (e.kind === 'started' ? `started ${e.attempt}` : `${e.status} after ${e.attempts}`));
  }

  finished(taskId: string): TaskFinishedEvent | undefined {
    return this.events.find((e): e is TaskFinishedEvent => e.kind === 'finished' && e.taskId === taskId);
  }
}

describe('BullTaskWorker', () => {
  let prefix: string;
  let queue: BullTaskQueue;
  let inspect: Queue<TaskJob>;
  let workers: BullTaskWorker[];

  beforeEach(() => {
    prefix = `cinetrace-test-${process.pid}-${randomUUID().slice(0, 8)}`;
    queue = new BullTaskQueue(REDIS_URL, { prefix, backoffMs: 50, logger: quiet });
    inspect = new Queue<TaskJob>(TASK_QUEUE, { connection: { url: REDIS_URL }, prefix });
    workers = [];
  });

  afterEach(async () => {
    for (const worker of workers) await worker.close(true);
    await queue.close();
    await inspect.obliterate({ force: true });
    await inspect.close();
    await dropRedisPrefix(REDIS_URL, prefix);
  });

  async function startWorker(processor: TaskAttemptRunner, events: StreamPublisher, deps: Partial<BullTaskWorkerDeps> = {}) {
    const worker = new BullTaskWorker({
      redis: REDIS_URL,
      processor,
      events,
      concurrency: 4,
      prefix,
      lockDurationMs: 1000,
      republishDelayMs: 100,
      logger: quiet,
      // Every attempt reports its start at once here, so that the event sequences below are exact.
      startedAfterMs: 0,
      ...deps,
    });
    workers.push(worker);
    await worker.start();
    return worker;
  }

  it('starts the next staged task of a run as each one ends, never more of the run at once than its concurrency', async () => {
    const events = new RecordingStream();
    let running = 0;
    let most = 0;
    const processor = new FakeProcessor(async (job) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
      return echo(job);
    });
    await startWorker(processor, events, { concurrency: 4 });
    await startWorker(processor, events, { concurrency: 4 });
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);

    await queue.stage(
      'run-1',
      2,
      ids.map((id) => aTaskJob(id)),
    );

    await waitFor(() => expect(ids.filter((id) => events.finished(id))).toHaveLength(12), 10_000);
    expect(most).toBe(2);
    expect(processor.calls.map((call) => call.taskId).sort()).toEqual([...ids].sort());
  });

  it('runs a task once, reports it started then completed with its outcome, and does not run it again when enqueued again', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(succeeds);
    await startWorker(processor, events);
    const job = aTaskJob('t1');

    await queue.enqueue([job]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined());
    await queue.enqueue([job]);
    await sleep(300);

    expect(events.of('t1')).toEqual(['started 1', 'completed after 1']);
    expect(events.finished('t1')).toMatchObject({
      runId: 'run-1',
      projectId: 'project-1',
      traceId: 'trace-t1',
      output: { echoed: { prompt: 'prompt of t1' } },
      usage: { tokens: 7 },
      costUsd: 0.01,
      error: null,
    });
    // Keyed by task: a task's events keep their order; a run's spread over the partitions.
    expect(events.records).toEqual([
      { topic: TaskTopics.TaskEvents, key: 't1' },
      { topic: TaskTopics.TaskEvents, key: 't1' },
    ]);
    expect(processor.calls.map((c) => c.attempt)).toEqual([1]);
  });

  it('retries a retryable failure with backoff up to the task’s attempts, then reports it failed with the error', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async () => {
      throw new TaskAttemptError('the target answered 503', true);
    });
    await startWorker(processor, events);

    const started = Date.now();
    await queue.enqueue([aTaskJob('t1', { maxAttempts: 3 })]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined());

    expect(events.of('t1')).toEqual(['started 1', 'started 2', 'started 3', 'failed after 3']);
    expect(events.finished('t1')).toMatchObject({ status: 'failed', error: 'the target answered 503', output: null, scores: [] });
    expect(processor.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    // Exponential backoff from 50 ms: 50 + 100 ms at least between the three attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('completes a task whose second attempt succeeds', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async (job, attempt) => {
      if (attempt === 1) throw new TaskAttemptError('the target timed out', true);
      return echo(job);
    });
    await startWorker(processor, events);

    await queue.enqueue([aTaskJob('t1')]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined());

    expect(events.of('t1')).toEqual(['started 1', 'started 2', 'completed after 2']);
  });

  it('ends a task at once on a failure no retry can mend', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async () => {
      throw new TaskAttemptError('the target answered 401: check the API key', false);
    });
    await startWorker(processor, events);

    await queue.enqueue([aTaskJob('t1', { maxAttempts: 5 })]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined());
    await sleep(200);

    expect(events.of('t1')).toEqual(['started 1', 'failed after 1']);
    expect(events.finished('t1')?.error).toBe('the target answered 401: check the API key');
    expect(processor.calls).toHaveLength(1);
  });

  it('reports an unexpected error without its internal message', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async () => {
      throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db');
    });
    await startWorker(processor, events);

    await queue.enqueue([aTaskJob('t1', { maxAttempts: 2 })]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined());

    expect(events.of('t1')).toEqual(['started 1', 'started 2', 'failed after 2']);
    expect(events.finished('t1')?.error).toBe('the attempt failed unexpectedly');
  });

  it('on cancel, drops the run’s waiting tasks and aborts its running one, which reports nothing more', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(hangs);
    await startWorker(processor, events, { concurrency: 1 });
    await queue.enqueue([aTaskJob('t1'), aTaskJob('t2'), aTaskJob('t3'), aTaskJob('other', { runId: 'run-2' })]);
    await waitFor(() => expect(processor.calls).toHaveLength(1));
    const running = processor.calls[0];

    await queue.cancel('run-1', ['t1', 't2', 't3']);
    await waitFor(() => expect(running.signal.aborted).toBe(true));
    // The run's other tasks never start; the other run's task does, once the slot is free.
    await waitFor(() => expect(processor.calls.map((c) => c.taskId)).toEqual([running.taskId, 'other']));
    await sleep(300);

    expect(events.of(running.taskId)).toEqual(['started 1']);
    expect(processor.calls.map((c) => c.taskId)).toEqual([running.taskId, 'other']);
    const counts = await inspect.getJobCounts('waiting', 'delayed', 'failed');
    expect(counts).toMatchObject({ waiting: 0, delayed: 0, failed: 0 });
  });

  it('runs a task again later, its attempt unspent, when its finished event cannot be published', async () => {
    const events = new RecordingStream();
    events.refuseOnce((e) => e.kind === 'finished');
    const processor = new FakeProcessor(succeeds);
    await startWorker(processor, events);

    await queue.enqueue([aTaskJob('t1', { maxAttempts: 1 })]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined(), 5000);

    // The first finish was not published: the task ran twice and completed.
    expect(events.of('t1')).toEqual(['started 1', 'started 1', 'completed after 1']);
    expect(processor.calls.map((c) => c.attempt)).toEqual([1, 1]);
  });

  it('reports a quick attempt by its finished event alone, and a slow one as started once it has run startedAfterMs', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async (job) => {
      if (job.taskId === 'slow') await sleep(400);
      return echo(job);
    });
    await startWorker(processor, events, { startedAfterMs: 150 });

    await queue.enqueue([aTaskJob('quick'), aTaskJob('slow')]);
    await waitFor(() => expect(events.finished('quick')).toBeDefined());
    await waitFor(() => expect(events.of('slow')).toEqual(['started 1']), 5000);
    await waitFor(() => expect(events.finished('slow')).toBeDefined(), 5000);
    await sleep(300);

    expect(events.of('quick')).toEqual(['completed after 1']);
    expect(events.finished('quick')).toMatchObject({ attempts: 1, startedAt: 1000 });
    expect(events.of('slow')).toEqual(['started 1', 'completed after 1']);
  });

  it('goes on with the attempt when its started event cannot be published (the finished event says when it started)', async () => {
    const events = new RecordingStream();
    events.refuseOnce((e) => e.kind === 'started');
    const processor = new FakeProcessor(succeeds);
    await startWorker(processor, events);

    await queue.enqueue([aTaskJob('t1', { maxAttempts: 1 })]);
    await waitFor(() => expect(events.finished('t1')).toBeDefined(), 5000);
    await sleep(200);

    expect(events.of('t1')).toEqual(['completed after 1']);
    expect(events.finished('t1')).toMatchObject({ startedAt: 1000 });
    expect(processor.calls).toHaveLength(1);
  });

  it('runs a task again later, its attempt unspent, when its trace cannot be recorded', async () => {
    const events = new RecordingStream();
    let traceFailures = 1;
    const processor = new FakeProcessor(async (job) => {
      const recorded = traceFailures-- > 0 ? Promise.reject(new TaskAttemptError('could not record the trace of the attempt', true)) : Promise.resolve();
      recorded.catch(() => undefined);
      return { ...echo(job), recorded };
    });
    await startWorker(processor, events);

    await queue.enqueue([aTaskJob('t1', { maxAttempts: 1 })]);
    await waitFor(() => expect(processor.calls).toHaveLength(2), 5000);
    await waitFor(() => expect(events.of('t1')).toHaveLength(4));

    // The task counts as done only with its trace: the second run (same attempt) records it; the service keeps the first result.
    expect(events.of('t1')).toEqual(['started 1', 'completed after 1', 'started 1', 'completed after 1']);
    expect(processor.calls.map((c) => c.attempt)).toEqual([1, 1]);
  });

  it('hands a task whose worker died mid-attempt to another worker, which completes it', async () => {
    const events = new RecordingStream();
    const dying = new FakeProcessor(hangs);
    const doomed = await startWorker(dying, events, { lockDurationMs: 500 });
    await queue.enqueue([aTaskJob('t1')]);
    await waitFor(() => expect(dying.calls).toHaveLength(1));

    await doomed.close(true);
    const survivor = new FakeProcessor(succeeds);
    await startWorker(survivor, events, { lockDurationMs: 500, stalledIntervalMs: 250 });
    await waitFor(() => expect(events.finished('t1')).toBeDefined(), 8000);

    // The attempt that died with its worker counts; it reported nothing more.
    expect(events.of('t1')).toEqual(['started 1', 'started 2', 'completed after 2']);
    expect(survivor.calls.map((c) => c.attempt)).toEqual([2]);
    expect(dying.calls[0].signal.aborted).toBe(true);
  });

  it('does not run a task again once the attempts that died with their workers used up maxAttempts', async () => {
    const events = new RecordingStream();
    const dying = new FakeProcessor(hangs);
    const doomed = await startWorker(dying, events, { lockDurationMs: 500 });
    await queue.enqueue([aTaskJob('t1', { maxAttempts: 1 })]);
    await waitFor(() => expect(dying.calls).toHaveLength(1));

    await doomed.close(true);
    const survivor = new FakeProcessor(succeeds);
    await startWorker(survivor, events, { lockDurationMs: 500, stalledIntervalMs: 250 });
    await waitFor(() => expect(events.finished('t1')).toBeDefined(), 8000);

    expect(events.of('t1')).toEqual(['started 1', 'failed after 1']);
    expect(events.finished('t1')).toMatchObject({ error: 'the process running this task stopped before it finished, and no attempt is left' });
    expect(survivor.calls).toHaveLength(0);
  });

  it('counts the attempts the service recorded before handing the task over', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async () => {
      throw new TaskAttemptError('the target answered 503', true);
    });
    await startWorker(processor, events);
    await queue.enqueue([aTaskJob('t1', { maxAttempts: 3, attemptsBefore: 1 }), aTaskJob('t2', { maxAttempts: 3, attemptsBefore: 3 })]);
    await waitFor(() => expect([events.finished('t1'), events.finished('t2')]).toEqual([expect.anything(), expect.anything()]));

    expect(events.of('t1')).toEqual(['started 2', 'started 3', 'failed after 3']);
    expect(events.of('t2')).toEqual(['failed after 3']);
    expect(processor.calls.map((c) => `${c.taskId}#${c.attempt}`)).toEqual(['t1#2', 't1#3']);
  });

  it('drops the result of an attempt whose lock passed to another worker while it ran', async () => {
    const events = new RecordingStream();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const processor = new FakeProcessor(async (job) => {
      await finished;
      return echo(job);
    });
    await startWorker(processor, events, { lockDurationMs: 1000 });
    await queue.enqueue([aTaskJob('t1')]);
    await waitFor(() => expect(processor.calls).toHaveLength(1));

    // As a stalled check would after the lock expired: another worker's token on the job,
    // and the attempt outlives half its lock (a quicker one cannot have lost it).
    const redis = await inspect.client;
    await redis.set(`${prefix}:${TASK_QUEUE}:t1:lock`, 'another-worker');
    await sleep(600);
    finish();
    await sleep(500);

    expect(events.of('t1')).toEqual(['started 1']);
  });

  it('fails a task that keeps taking its workers down, instead of leaving it running for ever', async () => {
    const events = new RecordingStream();
    const timing = { lockDurationMs: 500, stalledIntervalMs: 250, maxStalledCount: 1 };
    const first = new FakeProcessor(hangs);
    const w1 = await startWorker(first, events, timing);
    await queue.enqueue([aTaskJob('t1')]);
    await waitFor(() => expect(first.calls).toHaveLength(1));
    await w1.close(true);

    const second = new FakeProcessor(hangs);
    const w2 = await startWorker(second, events, timing);
    await waitFor(() => expect(second.calls).toHaveLength(1), 8000);
    await w2.close(true);

    const third = new FakeProcessor(succeeds);
    await startWorker(third, events, timing);
    await waitFor(() => expect(events.finished('t1')).toBeDefined(), 8000);

    expect(events.finished('t1')).toMatchObject({ status: 'failed', error: expect.stringContaining('stopped before it finished') });
    expect(third.calls).toHaveLength(0);
  });

  it('on close, lets a running attempt finish and report before it returns', async () => {
    const events = new RecordingStream();
    const processor = new FakeProcessor(async (job) => {
      await sleep(300);
      return echo(job);
    });
    const worker = await startWorker(processor, events);
    await queue.enqueue([aTaskJob('t1')]);
    await waitFor(() => expect(processor.calls).toHaveLength(1));

    await worker.close();

    expect(events.of('t1')).toEqual(['started 1', 'completed after 1']);
  });

  it('on close, hands an attempt that outlasts the grace period back to the queue, and another worker completes it', async () => {
    const events = new RecordingStream();
    const slow = new FakeProcessor(hangs);
    const leaving = await startWorker(slow, events, { shutdownGraceMs: 100 });
    await queue.enqueue([aTaskJob('t1', { maxAttempts: 1 })]);
    await waitFor(() => expect(slow.calls).toHaveLength(1));

    await leaving.close();
    expect(slow.calls[0].signal.aborted).toBe(true);
    const next = new FakeProcessor(succeeds);
    await startWorker(next, events);
    await waitFor(() => expect(events.finished('t1')).toBeDefined());

    // Even a task with a single attempt completes: the handover did not count as one.
    expect(events.of('t1')).toEqual(['started 1', 'started 1', 'completed after 1']);
  });

  it('fails to start, within its deadline, when Redis is unreachable', async () => {
    const worker = new BullTaskWorker({
      redis: 'redis://127.0.0.1:1',
      processor: new FakeProcessor(succeeds),
      events: new RecordingStream(),
      concurrency: 1,
      prefix,
      startTimeoutMs: 500,
      logger: quiet,
    });
    const started = Date.now();
    await expect(worker.start()).rejects.toThrow(/Redis did not answer/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
