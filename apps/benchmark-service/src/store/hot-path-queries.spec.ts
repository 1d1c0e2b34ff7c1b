import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { In, LessThan, LessThanOrEqual, MoreThan, type DataSource } from 'typeorm';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { aRun, aTask } from './run-rows.fixtures';
import { Run } from './run.entity';
import { Benchmark } from './benchmark.entity';
import { findLiveBenchmark } from './benchmarks.queries';
import { findRun, listRunsOfBenchmark, lockRun, markHandedOverThrough, updateRunProgress } from './runs.queries';
import { Task } from './task.entity';
import { countOpenHandedOver, findOpenHandedOver, findTaskResults, nextTasksToHandOver, openHandedOverIds } from './tasks.queries';

// The task-event and fill paths read and write runs and tasks with raw statements (entityRows)
// where TypeORM's find and update were: what they answer must be what find answered, value
// for value, on both stores.
describe.each(TEST_STORES)('the hot paths of runs and tasks on %s', (kind) => {
  let store: TestStore;
  let dataSource: DataSource;
  const run = Object.assign(aRun('run_hot', 8), {
    experiment: { sweep: 'a', seed: 7 },
    scoreTotals: { exact_match: { sum: 3.5, scored: 4, passed: 3 } },
    costUsd: 0.125,
    promptId: 'prm_1',
    promptVersion: 3,
    createdAt: 1_763_900_000_001,
    startedAt: 1_763_900_000_002,
  });
  const tasks = Array.from({ length: 6 }, (_, i) => aTask('run_hot', i));
  Object.assign(tasks[0], {
    status: 'completed',
    attempts: 2,
    output: { caption: 'a "quoted" cat', frames: [1, 2] },
    scores: [{ scorer: 'exact_match', score: 1, passed: true, details: null, error: null }],
    usage: { tokens: 30 },
    costUsd: 0.0125,
    startedAt: 1_763_900_000_123,
    finishedAt: 1_763_900_004_567,
    durationMs: 4444,
  });
  Object.assign(tasks[1], { status: 'running', attempts: 1, startedAt: 5 });
  Object.assign(tasks[2], { status: 'pending', output: undefined, error: 'the target answered 503' });

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
    dataSource = store.dataSource;
    await dataSource.manager.save(run);
    await dataSource.manager.save(tasks);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('reads a run as find does, by id or by its benchmark while active, and nothing for an unknown one', async () => {
    const found = await dataSource.manager.findOneByOrFail(Run, { id: 'run_hot' });
    expect(await findRun(dataSource.manager, 'run_hot')).toEqual(found);
    expect(await dataSource.transaction((tx) => lockRun(tx, { id: 'run_hot' }))).toEqual(found);
    expect(await dataSource.transaction((tx) => lockRun(tx, { activeBenchmarkId: 'bm_1' }))).toEqual(found);
    expect(found).toMatchObject({ costUsd: 0.125, createdAt: 1_763_900_000_001, finishedAt: null, scoreTotals: run.scoreTotals });
    expect(await findRun(dataSource.manager, 'run_none')).toBeNull();
    expect(await dataSource.transaction((tx) => lockRun(tx, { id: 'run_none' }))).toBeNull();
  });

  it("writes a run's progress columns and leaves the others as they were", async () => {
    const before = await dataSource.manager.findOneByOrFail(Run, { id: 'run_hot' });
    const moved = Object.assign(new Run(), before, {
      status: 'completed',
      activeBenchmarkId: null,
      pending: 0,
      running: 0,
      completed: 19,
      failed: 1,
      scoreTotals: { exact_match: { sum: 19, scored: 20, passed: 19 } },
      costUsd: null,
      finishedAt: 1_763_900_009_999,
      // Not progress: must stay as stored.
      total: 999,
      experiment: { changed: true },
    });
    await dataSource.transaction((tx) => updateRunProgress(tx, moved));
    expect(await dataSource.manager.findOneByOrFail(Run, { id: 'run_hot' })).toEqual({ ...moved, total: before.total, experiment: before.experiment });
    await dataSource.transaction((tx) => updateRunProgress(tx, before));
    expect(await dataSource.manager.findOneByOrFail(Run, { id: 'run_hot' })).toEqual(before);
  });

  it('moves the hand-over mark forward only', async () => {
    await dataSource.transaction((tx) => markHandedOverThrough(tx, 'run_hot', 3));
    await dataSource.transaction((tx) => markHandedOverThrough(tx, 'run_hot', 1));
    expect((await dataSource.manager.findOneByOrFail(Run, { id: 'run_hot' })).handedOverThrough).toBe(3);
    await dataSource.transaction((tx) => markHandedOverThrough(tx, 'run_hot', -1));
    expect((await dataSource.manager.findOneByOrFail(Run, { id: 'run_hot' })).handedOverThrough).toBe(3);
  });

  it('reads task results as find does (output absent and JSON null apart), for any number of ids', async () => {
    const select = {
      id: true,
      runId: true,
      status: true,
      attempts: true,
      output: true,
      scores: true,
      error: true,
      usage: true,
      costUsd: true,
      startedAt: true,
      finishedAt: true,
      durationMs: true,
    } as const;
    const ids = ['task_0', 'task_2', 'task_3', 'task_none'];
    const byFind = await dataSource.manager.find(Task, { select, where: { id: In(ids) } });
    const read = await dataSource.transaction((tx) => findTaskResults(tx, ids));
    const byId = (list: Task[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(read)).toEqual(byId(byFind));
    expect(read).toHaveLength(3);
    expect(read.find((task) => task.id === 'task_2')!.output).toBeUndefined();
    expect(read.find((task) => task.id === 'task_3')!.output).toBeNull();
    expect(read.find((task) => task.id === 'task_0')).toMatchObject({ output: tasks[0].output, usage: { tokens: 30 }, durationMs: 4444, costUsd: 0.0125 });
    expect(await dataSource.transaction((tx) => findTaskResults(tx, ['task_1']))).toEqual([expect.objectContaining({ id: 'task_1', status: 'running' })]);
  });

  it("lists a benchmark's runs and reads a live benchmark as find does, within the project only", async () => {
    const older = Object.assign(aRun('run_hos', 4), { activeBenchmarkId: null, status: 'completed', createdAt: 5 });
    const elsewhere = Object.assign(aRun('run_hot_9', 4), { projectId: 'prj_2', activeBenchmarkId: null });
    await dataSource.manager.save([older, elsewhere]);
    const page = (after?: string) =>
      dataSource.manager.find(Run, { where: { benchmarkId: 'bm_1', projectId: 'prj_1', ...(after ? { id: LessThan(after) } : {}) }, order: { id: 'DESC' }, take: 1 });
    expect(await listRunsOfBenchmark(dataSource.manager, 'prj_1', 'bm_1', undefined, 1)).toEqual(await page());
    expect(await listRunsOfBenchmark(dataSource.manager, 'prj_1', 'bm_1', 'run_hot', 1)).toEqual(await page('run_hot'));
    expect((await page('run_hot')).map((r) => r.id)).toEqual(['run_hos']);
    expect((await listRunsOfBenchmark(dataSource.manager, 'prj_1', 'bm_1', undefined, 10)).map((r) => r.id)).toEqual(['run_hot', 'run_hos']);
    expect((await listRunsOfBenchmark(dataSource.manager, 'prj_2', 'bm_1', undefined, 10)).map((r) => r.id)).toEqual(['run_hot_9']);

    const benchmark = Object.assign(new Benchmark(), {
      id: 'bm_1',
      projectId: 'prj_1',
      name: 'hot',
      description: '',
      datasetId: 'ds_1',
      scorers: [{ type: 'exact_match', name: 'exact_match' }],
      target: { type: 'dataset' },
      runner: { concurrency: 8, maxAttempts: 1, timeoutMs: 5000 },
      status: 'running',
      lastRunId: 'run_hot',
      createdAt: 1,
      updatedAt: 2,
      deletedAt: null,
    });
    await dataSource.manager.save(benchmark);
    expect(await findLiveBenchmark(dataSource.manager, 'prj_1', 'bm_1')).toEqual(await dataSource.manager.findOneBy(Benchmark, { id: 'bm_1' }));
    expect(await findLiveBenchmark(dataSource.manager, 'prj_2', 'bm_1')).toBeNull();
    await dataSource.manager.update(Benchmark, { id: 'bm_1' }, { deletedAt: 3 });
    expect(await findLiveBenchmark(dataSource.manager, 'prj_1', 'bm_1')).toBeNull();
  });

  it('counts and reads the open tasks handed over, and reads the next ones to hand over, as find does, whole, in item order', async () => {
    const mark = { id: 'run_hot', handedOverThrough: 2 };
    const handedOver = await dataSource.manager.find(Task, { where: { runId: 'run_hot', status: In(['pending', 'running']), itemIndex: LessThanOrEqual(2) } });
    expect(handedOver.map((task) => task.id).sort()).toEqual(['task_1', 'task_2']);
    expect(await dataSource.transaction((tx) => countOpenHandedOver(tx, mark))).toBe(2);
    const byId = (a: Task, b: Task) => a.id.localeCompare(b.id);
    expect((await findOpenHandedOver(dataSource.manager, mark)).sort(byId)).toEqual(handedOver.sort(byId));
    expect((await dataSource.transaction((tx) => openHandedOverIds(tx, mark))).sort()).toEqual(['task_1', 'task_2']);
    expect(await countOpenHandedOver(dataSource.manager, { id: 'run_other', handedOverThrough: 2 })).toBe(0);
    const next = await dataSource.manager.find(Task, { where: { runId: 'run_hot', status: 'pending', itemIndex: MoreThan(2) }, order: { itemIndex: 'ASC' }, take: 2 });
    const read = await dataSource.transaction((tx) => nextTasksToHandOver(tx, mark, 2));
    expect(read).toEqual(next);
    expect(read.map((task) => task.itemIndex)).toEqual([3, 4]);
    expect(read[0]).toMatchObject({ id: 'task_3', input: { prompt: '3' }, metadata: {}, traceId: 'trace_3', expected: null });
  });
});
