import { expect } from '@jest/globals';
import { dropRedisPrefix, waitFor } from '@cinetrace/testing';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { BullJobQueue, type BullJobQueueSettings } from './bull-job-queue';
import type { JobRun, JobToQueue } from './job-queue';

// Real Redis and BullMQ; a fake handler that holds each job until the test finishes it. Every test under a prefix of its own, deleted afterwards.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NAME = 'test-jobs';

interface Data {
  mediaId: string;
  projectId?: string;
}

/** Waits until `read` gives `expected` (a Redis read: waitFor checks synchronously). */
async function eventually<V>(read: () => Promise<V>, expected: V, timeoutMs = 4000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && (await read()) !== expected) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await read()).toBe(expected);
}

const of = (projectId: string, ...ids: string[]): JobToQueue<Data>[] => ids.map((id) => ({ id, data: { mediaId: id, projectId } }));

describe('BullJobQueue', () => {
  let prefix: string;
  let queue: BullJobQueue<Data>;
  let redis: IORedis;
  const started: string[] = [];
  const runs = new Map<string, JobRun<Data>>();
  const finish = new Map<string, () => void>();
  /** Once the test is over, jobs still in hand finish at once (close() waits for them). */
  let closing = false;

  const aQueue = (settings: Partial<BullJobQueueSettings<Data>> = {}) =>
    new BullJobQueue<Data>({
      name: NAME,
      label: 'Test',
      jobName: 'probe',
      redis: { url: REDIS_URL },
      prefix,
      lockMs: 30_000,
      // Two slots, one project at most one of them.
      concurrency: 2,
      perGroup: 1,
      attempts: 3,
      backoffMs: 50,
      groupOf: (data) => data.projectId,
      ...settings,
    });

  beforeEach(() => {
    prefix = `cinetrace-test-${process.pid}-${randomUUID().slice(0, 8)}`;
    started.length = 0;
    runs.clear();
    finish.clear();
    closing = false;
    queue = aQueue();
    redis = new IORedis(REDIS_URL);
  });

  afterEach(async () => {
    closing = true;
    for (const done of finish.values()) done();
    await queue.close();
    redis.disconnect();
    await dropRedisPrefix(REDIS_URL, prefix);
  });

  const drain = () =>
    queue.process(
      (job) =>
        new Promise<void>((resolve) => {
          started.push(job.id);
          runs.set(job.id, job);
          if (closing) resolve();
          else finish.set(job.id, resolve);
        }),
    );
  const done = async (id: string) => {
    finish.get(id)!();
    finish.delete(id);
  };

  it("runs another project's job beside one project's flood, which takes one slot at a time and then runs to its end", async () => {
    await queue.enqueue(of('prj_flood', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6'));
    await queue.enqueue(of('prj_other', 'o1'));
    drain();
    await waitFor(() => expect([...started].sort()).toEqual(['f1', 'o1']));
    // The flood's second job waits for its first, though a slot is free.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...started].sort()).toEqual(['f1', 'o1']);
    await done('o1');
    await done('f1');
    await waitFor(() => expect(started).toContain('f2'));
    for (const id of ['f2', 'f3', 'f4', 'f5']) {
      await waitFor(() => expect(finish.has(id)).toBe(true));
      await done(id);
    }
    await waitFor(() => expect(started).toHaveLength(7));
  }, 30_000);

  it("ranks each job by its place in its project's line: a project queued behind a flood is taken before the flood's second job", async () => {
    await queue.enqueue(of('prj_flood', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'));
    await queue.enqueue(of('prj_late', 'l1'));
    const priorities = await Promise.all(['f1', 'f8', 'l1'].map(async (id) => Number(await redis.hget(`${prefix}:${NAME}:${id}`, 'priority'))));
    expect(priorities).toEqual([1, 8, 1]);
    // The same id again keeps its place and adds no job (a sweep hands pending work over again).
    await queue.enqueue(of('prj_flood', 'f8'));
    expect(await redis.scard(`${prefix}:${NAME}:line:prj_flood`)).toBe(8);
    expect((await queue.counts()).waiting).toBe(9);
    drain();
    await waitFor(() => expect([...started].sort()).toEqual(['f1', 'l1']));
    await done('l1');
    // A finished job leaves its project's line: the project's next job is first in it again.
    const line = `${prefix}:${NAME}:line:prj_late`;
    await eventually(() => redis.scard(line), 0);
  }, 30_000);

  it('retries a failed job with backoff, telling the last attempt so, and then drops it from its line', async () => {
    const attempts: Array<[number, boolean]> = [];
    queue.process(async ({ attempt, lastAttempt }) => {
      attempts.push([attempt, lastAttempt]);
      throw new Error('storage away');
    });
    await queue.enqueue(of('prj_a', 'a'));
    await waitFor(() =>
      expect(attempts).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]),
    );
    await eventually(() => redis.scard(`${prefix}:${NAME}:line:prj_a`), 0);
    await eventually(() => redis.exists(`${prefix}:${NAME}:a`), 0);
  }, 30_000);

  it('runs a job queued by a plain BullMQ producer under the same names (as the code before this queue queued them)', async () => {
    const producer = new Queue(NAME, { connection: new IORedis(REDIS_URL, { maxRetriesPerRequest: null }), prefix });
    try {
      await producer.add('probe', { mediaId: 'med_old', projectId: 'prj_old' }, { jobId: 'med_old', priority: 1, attempts: 3, removeOnComplete: true });
      await producer.add('probe', { mediaId: 'med_older' }, { jobId: 'med_older', attempts: 3, removeOnComplete: true });
    } finally {
      await producer.close();
      (await producer.client).disconnect();
    }
    drain();
    await waitFor(() => expect([...started].sort()).toEqual(['med_old', 'med_older']));
    expect(runs.get('med_old')!.data).toEqual({ mediaId: 'med_old', projectId: 'prj_old' });
    expect(runs.get('med_old')!.lastAttempt).toBe(false);
  }, 30_000);

  it("cancels jobs that have not started, whether waiting in Redis or in this worker's hands: they never run and leave their line", async () => {
    const one = aQueue({ concurrency: 1 });
    try {
      one.process(
        (job) =>
          new Promise<void>((resolve) => {
            started.push(job.id);
            finish.set(job.id, resolve);
          }),
      );
      await one.enqueue(of('prj_c', 'c1', 'c2', 'c3', 'c4'));
      await waitFor(() => expect(started).toEqual(['c1']));
      // c2 is in the worker's hands (it holds twice its slots), c3 waits in Redis.
      await one.cancel(['c2', 'c3']);
      await done('c1');
      await waitFor(() => expect(started).toEqual(['c1', 'c4']));
      await done('c4');
      await eventually(() => redis.scard(`${prefix}:${NAME}:line:prj_c`), 0);
      expect(started).toEqual(['c1', 'c4']);
    } finally {
      await one.close();
    }
  }, 30_000);

  it('is reachable while Redis answers, and not once closed', async () => {
    await eventually(() => queue.isReachable(), true);
    await queue.close();
    expect(await queue.isReachable()).toBe(false);
    queue = aQueue();
  });
});
