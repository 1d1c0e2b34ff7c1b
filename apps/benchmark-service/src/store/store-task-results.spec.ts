import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import type { DataSource } from 'typeorm';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { aRun, aTask } from './run-rows.fixtures';
import { storeTaskResults } from './store-task-results';
import { Task } from './task.entity';

describe.each(TEST_STORES)('storeTaskResults on %s', (kind) => {
  let store: TestStore;
  let dataSource: DataSource;

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
    dataSource = store.dataSource;
    await dataSource.manager.save(aRun('run_1', 4));
    await dataSource.manager.save(Array.from({ length: 5 }, (_, i) => aTask('run_1', i)));
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it('writes each task its own result in one statement, reads back as stored, and leaves other tasks alone', async () => {
    const [completed, failed, running] = await dataSource.manager.find(Task, { where: { runId: 'run_1' }, order: { itemIndex: 'ASC' }, take: 3 });
    Object.assign(completed, {
      status: 'completed',
      attempts: 2,
      output: { caption: 'a cat\'s "roof"', frames: [1, 2] },
      usage: { tokens: 30 },
      costUsd: 0.0125,
      scores: [{ scorer: 'exact_match', score: 1, passed: true, details: null, error: null }],
      startedAt: 1_763_900_000_123,
      finishedAt: 1_763_900_004_567,
      durationMs: 4444,
    });
    Object.assign(failed, { status: 'failed', attempts: 3, output: undefined, error: 'the target answered 500', startedAt: 5, finishedAt: 9, durationMs: 4 });
    Object.assign(running, { status: 'running', attempts: 1, output: null, startedAt: 7 });

    await dataSource.transaction((tx) => storeTaskResults(tx, [completed, failed, running]));

    const stored = await dataSource.manager.find(Task, { where: { runId: 'run_1' }, order: { itemIndex: 'ASC' } });
    expect(stored[0]).toEqual(completed);
    expect(stored[1]).toEqual(failed);
    expect(stored[1].output).toBeUndefined();
    // JSON null is a value, not an absent output.
    expect(stored[2]).toEqual(running);
    expect(stored[2].output).toBeNull();
    expect(stored.slice(3)).toEqual([aTask('run_1', 3), aTask('run_1', 4)]);
  });

  it('writes more tasks than one statement takes', async () => {
    const many = Array.from({ length: 1203 }, (_, i) => Object.assign(aTask('run_1', 100 + i), { id: `many_${i}` }));
    await dataSource.manager.save(many, { chunk: 200 });
    for (const [i, task] of many.entries()) Object.assign(task, { status: 'completed', attempts: 1, finishedAt: i });

    await dataSource.transaction((tx) => storeTaskResults(tx, many));

    const stored = await dataSource.manager.find(Task, { where: { status: 'completed' }, order: { itemIndex: 'ASC' } });
    expect(stored.filter((task) => task.id.startsWith('many_')).map((task) => task.finishedAt)).toEqual(many.map((_, i) => i));
  });
});
