import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import type { DataSource } from 'typeorm';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { DatasetItem } from './dataset-item.entity';
import { insertRunTasks } from './insert-run-tasks';
import { aRun } from './run-rows.fixtures';
import { Task } from './task.entity';

function anItem(datasetId: string, index: number): DatasetItem {
  return Object.assign(new DatasetItem(), {
    datasetId,
    index,
    id: `dsi_${datasetId}_${index}`,
    version: 1,
    createdAt: 1,
    input: { caption: `a cat, take ${index}`, quote: 'it\'s "fine"' },
    // Every shape `expected` takes: absent, JSON null, a value.
    expected: index % 3 === 0 ? undefined : index % 3 === 1 ? null : `A cat, take ${index}.`,
    metadata: { output: `A cat, take ${index}.` },
  });
}

describe.each(TEST_STORES)('insertRunTasks on %s', (kind) => {
  let store: TestStore;
  let dataSource: DataSource;

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
    dataSource = store.dataSource;
    await dataSource.manager.save(
      Array.from({ length: 1205 }, (_, i) => anItem('ds_1', i)),
      { chunk: 200 },
    );
    await dataSource.manager.save([anItem('ds_other', 0), anItem('ds_other', 1)]);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it('creates one pending task per chosen item, with the item content as stored, over several statements', async () => {
    const run = aRun('run_1', 4);
    const chosen = Array.from({ length: 1205 }, (_, i) => i).filter((i) => i % 2 === 0 || i > 1100);

    await dataSource.transaction((tx) => insertRunTasks(tx, run, chosen));

    const tasks = await dataSource.manager.find(Task, { where: { runId: 'run_1' }, order: { itemIndex: 'ASC' } });
    expect(tasks.map((task) => task.itemIndex)).toEqual(chosen);
    const items = new Map((await dataSource.manager.find(DatasetItem, { where: { datasetId: 'ds_1' } })).map((item) => [item.index, item]));
    for (const task of tasks) {
      const item = items.get(task.itemIndex)!;
      expect(task).toMatchObject({ runId: 'run_1', projectId: run.projectId, itemId: item.id, status: 'pending', attempts: 0, scores: [] });
      expect([task.input, task.expected, task.metadata]).toEqual([item.input, item.expected, item.metadata]);
      expect([task.output, task.error, task.startedAt, task.finishedAt]).toEqual([undefined, null, null, null]);
    }
    expect(tasks.filter((task) => task.expected === undefined).length).toBeGreaterThan(0);
    expect(tasks.filter((task) => task.expected === null).length).toBeGreaterThan(0);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
    expect(new Set(tasks.map((task) => task.traceId)).size).toBe(tasks.length);
  });
});
