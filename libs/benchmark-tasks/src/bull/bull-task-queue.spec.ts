import { ErrorCode, TASK_QUEUE, TaskJob } from '@cinetrace/contracts';
import { aTaskJob, dropRedisPrefix, waitFor } from '@cinetrace/testing';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { BullTaskQueue } from './bull-task-queue';
import { RunStaging } from './run-staging';
import { taskCancelChannel } from './task-cancel-channel';

// Real Redis; every test under a prefix of its own, deleted afterwards.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('BullTaskQueue', () => {
  let prefix: string;
  let redis: IORedis;
  let queue: BullTaskQueue;
  let inspect: Queue<TaskJob>;

  beforeEach(() => {
    prefix = `cinetrace-test-${process.pid}-${randomUUID().slice(0, 8)}`;
    redis = new IORedis(REDIS_URL);
    queue = new BullTaskQueue(REDIS_URL, { prefix, logger: quiet });
    inspect = new Queue<TaskJob>(TASK_QUEUE, { connection: { url: REDIS_URL }, prefix });
  });

  afterEach(async () => {
    await queue.close();
    await inspect.obliterate({ force: true });
    await inspect.close();
    await dropRedisPrefix(REDIS_URL, prefix);
    await redis.quit();
  });

  it('enqueues one job per task, and a task enqueued again stays as it was', async () => {
    await queue.enqueue([aTaskJob('t1'), aTaskJob('t2')]);
    await queue.enqueue([aTaskJob('t1', { timeoutMs: 1 }), aTaskJob('t3')]);

    const waiting = await inspect.getWaiting();
    expect(waiting.map((j) => j.id).sort()).toEqual(['t1', 't2', 't3']);
    const first = await inspect.getJob('t1');
    expect(first?.data.timeoutMs).toBe(5000);
    // What makes the worker's retries and the service's restart dedupe work.
    expect(first?.opts).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 3600 },
    });
  });

  it('cancels the named tasks that have not started, leaves the others, and announces the run to the workers', async () => {
    const listener = new IORedis(REDIS_URL);
    const announced: string[] = [];
    listener.on('message', (_channel: string, runId: string) => announced.push(runId));
    await listener.subscribe(taskCancelChannel(prefix));
    try {
      await queue.enqueue([aTaskJob('t1'), aTaskJob('t2'), aTaskJob('t3', { runId: 'run-2' })]);
      await inspect.add('task', aTaskJob('t4'), { jobId: 't4', delay: 60_000 });

      await queue.cancel('run-1', ['t1', 't4', 'gone']);

      expect((await inspect.getWaiting()).map((j) => j.id).sort()).toEqual(['t2', 't3']);
      expect(await inspect.getJob('t4')).toBeUndefined();
      await waitFor(() => expect(announced).toEqual(['run-1']), 3000);
    } finally {
      await listener.quit();
    }
  });

  it('names the tasks whose job is gone, as after Redis lost its data', async () => {
    await queue.enqueue([aTaskJob('t1'), aTaskJob('t2'), aTaskJob('t3')]);
    expect(await queue.missing(['t1', 't2', 't3', 'never-added'])).toEqual(['never-added']);
    await redis.del(`${prefix}:${TASK_QUEUE}:t2`);
    expect(await queue.missing(['t1', 't2', 't3'])).toEqual(['t2']);
    expect(await queue.missing([])).toEqual([]);
  });

  describe('staging a run', () => {
    const waitingIds = async () => (await inspect.getWaiting()).map((j) => j.id).sort();
    /** What a worker does when a job of the run ended: the next staged task gets its slot. */
    const endOneOf = (runId: string) => new RunStaging(redis, inspect).next(runId);
    const jobs = (...ids: string[]) => ids.map((id) => aTaskJob(id));

    it('starts as many tasks as the run concurrency and keeps the rest staged in order', async () => {
      await queue.stage('run-1', 2, jobs('t1', 't2', 't3', 't4'));
      expect(await waitingIds()).toEqual(['t1', 't2']);
      expect(await queue.stagedTaskIds('run-1')).toEqual(['t3', 't4']);
      expect(await queue.stagedCount('run-1')).toBe(2);
      expect(await inspect.getJob('t3')).toBeUndefined();
    });

    it('gives the slot of an ended job to the next staged task, and keeps it free once none is staged', async () => {
      await queue.stage('run-1', 2, jobs('t1', 't2', 't3'));
      await endOneOf('run-1');
      expect(await waitingIds()).toEqual(['t1', 't2', 't3']);
      expect(await queue.stagedTaskIds('run-1')).toEqual([]);
      await endOneOf('run-1');
      await endOneOf('run-1');
      // Two slots free: the next two staged start at once, the third waits.
      await queue.stage('run-1', 2, jobs('t4', 't5', 't6'));
      expect(await waitingIds()).toEqual(['t1', 't2', 't3', 't4', 't5']);
      expect(await queue.stagedTaskIds('run-1')).toEqual(['t6']);
    });

    it('skips a staged task that already has a job, without spending a slot on it', async () => {
      await queue.enqueue(jobs('t2'));
      await queue.stage('run-1', 2, jobs('t1', 't2', 't3'));
      expect(await waitingIds()).toEqual(['t1', 't2', 't3']);
      expect(await queue.stagedTaskIds('run-1')).toEqual([]);
    });

    it('puts a task lost between stage and job back first, with the slot it took', async () => {
      await queue.stage('run-1', 1, jobs('t1', 't2', 't3'));
      // t1 ended; the worker took t2 in its slot and died before adding the job.
      await redis.lpop(`${prefix}:${TASK_QUEUE}:staged:run-1`);
      await queue.restage('run-1', 1, jobs('t2'));
      expect(await waitingIds()).toEqual(['t1', 't2']);
      expect(await queue.stagedTaskIds('run-1')).toEqual(['t3']);
    });

    it("starts over from the run concurrency when Redis lost the run's stage", async () => {
      await queue.stage('run-1', 2, jobs('t1', 't2', 't3'));
      await inspect.obliterate({ force: true });
      await redis.del(`${prefix}:${TASK_QUEUE}:staged:run-1`, `${prefix}:${TASK_QUEUE}:free:run-1`);
      await queue.restage('run-1', 2, jobs('t1', 't2', 't3'));
      expect(await waitingIds()).toEqual(['t1', 't2']);
      expect(await queue.stagedTaskIds('run-1')).toEqual(['t3']);
    });

    it('keeps each run to its own concurrency', async () => {
      await queue.stage('run-1', 1, jobs('a1', 'a2'));
      await queue.stage('run-2', 2, [aTaskJob('b1', { runId: 'run-2' }), aTaskJob('b2', { runId: 'run-2' }), aTaskJob('b3', { runId: 'run-2' })]);
      expect(await waitingIds()).toEqual(['a1', 'b1', 'b2']);
      await endOneOf('run-2');
      expect(await waitingIds()).toEqual(['a1', 'b1', 'b2', 'b3']);
      expect(await queue.stagedTaskIds('run-1')).toEqual(['a2']);
    });

    it('counts the jobs not finished, and gives a run whose slots were not given back all of them again', async () => {
      await queue.stage('run-1', 2, jobs('t1', 't2', 't3', 't4', 't5'));
      expect(await queue.unfinished(['t1', 't2', 'never-added'])).toBe(2);
      // Both jobs end (what BullMQ records of a finished job), and neither worker reaches Redis to give its slot to the next task.
      for (const id of ['t1', 't2']) await redis.hset(`${prefix}:${TASK_QUEUE}:${id}`, 'finishedOn', Date.now());
      expect(await queue.unfinished(['t1', 't2'])).toBe(0);

      await queue.restart('run-1', 2);
      expect(await queue.stagedTaskIds('run-1')).toEqual(['t5']);
      expect(await queue.unfinished(['t1', 't2', 't3', 't4'])).toBe(2);
    });

    it('starts nothing more of a cancelled run', async () => {
      await queue.stage('run-1', 1, jobs('t1', 't2'));
      await queue.cancel('run-1', ['t1', 't2']);
      await endOneOf('run-1');
      expect(await waitingIds()).toEqual([]);
      expect(await queue.stagedTaskIds('run-1')).toEqual([]);
      expect(await redis.keys(`${prefix}:${TASK_QUEUE}:*run-1`)).toEqual([]);
    });
  });

  it('answers readiness from a ping', async () => {
    expect(await queue.isReachable()).toBe(true);
  });

  it('fails fast as unavailable, never hangs, while Redis is unreachable', async () => {
    const down = new BullTaskQueue('redis://127.0.0.1:1', { prefix, callTimeoutMs: 500, logger: quiet });
    try {
      const started = Date.now();
      await expect(down.enqueue([aTaskJob('t1')])).rejects.toMatchObject({ code: ErrorCode.Unavailable });
      await expect(down.cancel('run-1', ['t1'])).rejects.toMatchObject({ code: ErrorCode.Unavailable });
      expect(await down.isReachable()).toBe(false);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await down.close();
    }
  });
});
