import type { TaskJob } from '@cinetrace/contracts';
import { openServiceDataSource } from '@cinetrace/persistence';
import { createTestStoreEnv, openTestStore, type TestStore, type TestStoreEnv } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { In, type DataSource } from 'typeorm';
import type { BenchmarkServiceEnv } from '../benchmark-service.env';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { aRun, aTask } from '../store/run-rows.fixtures';
import { Run } from '../store/run.entity';
import { Task } from '../store/task.entity';
import { TaskDispatcher } from './task-dispatcher';
import { QueueSurvey, TaskQueue } from './task-queue';

/** A durable queue that remembers what it was given, slowly enough for two fills to overlap. */
class RecordingQueue extends TaskQueue {
  readonly durable = true;
  readonly enqueued: string[] = [];
  async enqueue(jobs: TaskJob[]): Promise<void> {
    await sleep(30);
    this.enqueued.push(...jobs.map((job) => job.taskId));
  }
  async cancel(): Promise<void> {}
  async survey(): Promise<QueueSurvey> {
    return { lost: [], stalled: false };
  }
  async isReachable(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

const CONCURRENCY = 3;

// Two replicas of benchmark-service on one PostgreSQL, each refilling the same run at once:
// the run's window must hold, as with one.
describe('TaskDispatcher, two replicas on one PostgreSQL', () => {
  let database: TestStoreEnv;
  let replicas: DataSource[];

  beforeAll(async () => {
    database = await createTestStoreEnv('postgres');
    const spec = benchmarkServiceStore(database.env as BenchmarkServiceEnv);
    replicas = [await openServiceDataSource(spec, 1), await openServiceDataSource(spec, 1)];
  }, 60_000);

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((ds) => ds.destroy()));
    await database?.remove();
  });

  it('never hands over more than the run concurrency, however the fills interleave', async () => {
    await replicas[0].manager.save(aRun('run_1', CONCURRENCY));
    await replicas[0].manager.save(Array.from({ length: 20 }, (_, i) => aTask('run_1', i)));
    const queue = new RecordingQueue();
    const [first, second] = replicas.map((ds) => new TaskDispatcher(ds, queue));

    await Promise.all([first.fill('run_1'), second.fill('run_1'), first.fill('run_1'), second.fill('run_1')]);

    expect(queue.enqueued).toEqual(['task_0', 'task_1', 'task_2']);
    // The run's mark says the first three were handed over, and no more.
    const run = await replicas[1].manager.findOneByOrFail(Run, { id: 'run_1' });
    expect(run.handedOverThrough).toBe(CONCURRENCY - 1);
  });

  it('recovers a lost task, and restarts a stalled run, once between them however their sweeps interleave', async () => {
    await replicas[0].manager.save(Object.assign(aRun('run_2', CONCURRENCY), { benchmarkId: 'bm_2', activeBenchmarkId: 'bm_2' }));
    await replicas[0].manager.save(Array.from({ length: 20 }, (_, i) => Object.assign(aTask('run_2', i), { id: `task_2_${i}` })));
    const queue = new StagingQueue();
    const [first, second] = replicas.map((ds) => new TaskDispatcher(ds, queue));
    await first.fill('run_2');

    queue.lostNow = ['task_2_1'];
    await Promise.all([first.sweep(), second.sweep()]);
    await Promise.all([first.sweep(), second.sweep()]);
    expect(queue.recovered).toEqual(['task_2_1']);

    queue.stalledRuns.add('run_2');
    await Promise.all([first.sweep(), second.sweep()]);
    await Promise.all([first.sweep(), second.sweep()]);
    expect(queue.restarted).toEqual(['run_2']);
  });
});

/** A queue that stages, whose losses and stalls the test decides. */
class StagingQueue extends TaskQueue {
  readonly durable = true;
  override readonly stagedPerSlot = 4;
  readonly handedOver: string[] = [];
  readonly recovered: string[] = [];
  readonly restarted: string[] = [];
  lostNow: string[] = [];
  stagedNow = 0;
  readonly stalledRuns = new Set<string>();
  async enqueue(): Promise<void> {
    throw new Error('a staging queue is handed runs over, not jobs');
  }
  override async stagedCount(): Promise<number> {
    return this.stagedNow;
  }
  override async handOver(_runId: string, _concurrency: number, jobs: TaskJob[]): Promise<void> {
    this.handedOver.push(...jobs.map((job) => job.taskId));
  }
  // Slow enough for another replica's sweep to look while one is acting.
  override async recover(_runId: string, _concurrency: number, jobs: TaskJob[]): Promise<void> {
    await sleep(50);
    this.recovered.push(...jobs.map((job) => job.taskId));
    this.lostNow = this.lostNow.filter((taskId) => !jobs.some((job) => job.taskId === taskId));
  }
  override async restart(runId: string): Promise<void> {
    await sleep(50);
    this.restarted.push(runId);
    this.stalledRuns.delete(runId);
  }
  async cancel(): Promise<void> {}
  async survey(runId: string): Promise<QueueSurvey> {
    return { lost: this.lostNow, stalled: this.stalledRuns.has(runId) };
  }
  async isReachable(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

describe('TaskDispatcher with a queue that stages', () => {
  let store: TestStore;
  let queue: StagingQueue;
  let dispatcher: TaskDispatcher;

  beforeEach(async () => {
    store = await openTestStore('sqlite', benchmarkServiceStore);
    await store.dataSource.manager.save(aRun('run_1', 2));
    await store.dataSource.manager.save(Array.from({ length: 20 }, (_, i) => aTask('run_1', i)));
    queue = new StagingQueue();
    dispatcher = new TaskDispatcher(store.dataSource, queue);
  });

  afterEach(async () => {
    await store.close();
  });

  it('hands over the run window and four staged tasks per slot, in item order', async () => {
    await dispatcher.fill('run_1');
    await dispatcher.fill('run_1');
    expect(queue.handedOver).toEqual(Array.from({ length: 10 }, (_, i) => `task_${i}`));
  });

  it('tops the window up once half a task per slot is missing from the stage, not after every end', async () => {
    await dispatcher.fill('run_1');
    await store.dataSource.manager.update(Task, { id: In(['task_0', 'task_1']) }, { status: 'completed' });

    queue.stagedNow = 8; // of 8 (two slots, four each): none missing
    await dispatcher.tasksEnded('run_1', 2);
    expect(queue.handedOver).toHaveLength(10);

    queue.stagedNow = 7; // half a task per slot missing
    await dispatcher.tasksEnded('run_1', 2);
    expect(queue.handedOver).toEqual(Array.from({ length: 12 }, (_, i) => `task_${i}`));
  });

  it('hands a lost task over again only once two sweeps in a row found it lost (a worker may be adding its job)', async () => {
    await dispatcher.fill('run_1');
    queue.lostNow = ['task_3'];
    await dispatcher.sweep();
    expect(queue.recovered).toEqual([]);
    await dispatcher.sweep();
    expect(queue.recovered).toEqual(['task_3']);
  });

  it('gives a run its slots back once two sweeps in a row found it stalled', async () => {
    await dispatcher.fill('run_1');
    queue.stalledRuns.add('run_1');
    await dispatcher.sweep();
    expect(queue.restarted).toEqual([]);
    queue.stalledRuns.delete('run_1');
    await dispatcher.sweep();
    queue.stalledRuns.add('run_1');
    await dispatcher.sweep();
    expect(queue.restarted).toEqual([]);
    await dispatcher.sweep();
    expect(queue.restarted).toEqual(['run_1']);
  });
});
