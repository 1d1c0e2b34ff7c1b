import { expect } from '@jest/globals';
import { MEDIA_QUEUE } from '@cinetrace/contracts';
import { dropRedisPrefix, waitFor } from '@cinetrace/testing';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { BullProbeQueue } from './bull-probe-queue';
import type { QueuedJob } from './probe-queue';

// Real Redis and BullMQ; a fake worker that holds each job until the test finishes it. Every test under a prefix of its own, deleted afterwards.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const of = (projectId: string, ...ids: string[]): QueuedJob[] => ids.map((id) => ({ id, projectId }));

describe('BullProbeQueue: fair between projects', () => {
  let prefix: string;
  let queue: BullProbeQueue;
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  /** Once the test is over, jobs still in hand finish at once (close() waits for them). */
  let closing = false;

  beforeEach(() => {
    prefix = `cinetrace-test-${process.pid}-${randomUUID().slice(0, 8)}`;
    started.length = 0;
    finish.clear();
    closing = false;
    // Two slots, one project at most one of them.
    queue = new BullProbeQueue({ url: REDIS_URL }, prefix, 2, 30_000, undefined, 1);
  });

  afterEach(async () => {
    closing = true;
    for (const done of finish.values()) done();
    await queue.close();
    await dropRedisPrefix(REDIS_URL, prefix);
  });

  const consume = () =>
    queue.consume(
      (id) =>
        new Promise<void>((resolve) => {
          started.push(id);
          if (closing) resolve();
          else finish.set(id, resolve);
        }),
    );
  const done = async (id: string) => {
    finish.get(id)!();
    finish.delete(id);
  };

  it("runs another project's job beside one project's flood, which takes one slot at a time and then runs to its end", async () => {
    await queue.enqueue(of('prj_flood', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6'));
    await queue.enqueue(of('prj_other', 'o1'));
    consume();
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
    const redis = new IORedis(REDIS_URL);
    try {
      const priorities = await Promise.all(['f1', 'f8', 'l1'].map(async (id) => Number(await redis.hget(`${prefix}:${MEDIA_QUEUE}:${id}`, 'priority'))));
      expect(priorities).toEqual([1, 8, 1]);
      // The same id again keeps its place (a sweep hands pending media over again).
      await queue.enqueue(of('prj_flood', 'f8'));
      expect(await redis.scard(`${prefix}:${MEDIA_QUEUE}:line:prj_flood`)).toBe(8);
      consume();
      await waitFor(() => expect([...started].sort()).toEqual(['f1', 'l1']));
      await done('l1');
      // A finished job leaves its project's line: the project's next job is first in it again.
      const line = `${prefix}:${MEDIA_QUEUE}:line:prj_late`;
      for (let i = 0; i < 100 && (await redis.scard(line)) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await redis.scard(line)).toBe(0);
    } finally {
      redis.disconnect();
    }
  }, 30_000);
});
