import { compileInThisThread } from '@cinetrace/scorers';
import { ErrorCode, type DatasetView, type PageRequest, type ProjectContext } from '@cinetrace/contracts';
import { aProjectContext, allPages, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { aBenchmarkInput, aBenchmarkServiceEnv, aDatasetInput, aFakeBus, anIdleFactRelay, captionItems, RecordingTaskQueue } from '../benchmark-service.fixtures';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { BenchmarksService } from '../benchmarks/benchmarks.service';
import { DatasetsService } from './datasets.service';

// benchmark-service's datasets on both of its stores: appends, item numbering, paging, deletes.
describe.each(TEST_STORES)('DatasetsService on %s', (kind) => {
  let store: TestStore;
  let datasets: DatasetsService;
  let benchmarks: BenchmarksService;
  let projects = 0;
  let ctx: ProjectContext;

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
    datasets = new DatasetsService(store.dataSource, anIdleFactRelay(store.dataSource));
    benchmarks = new BenchmarksService(store.dataSource, aBenchmarkServiceEnv(), new RecordingTaskQueue(), aFakeBus().bus, compileInThisThread, anIdleFactRelay(store.dataSource));
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    ctx = aProjectContext(`prj_${++projects}`);
  });

  it('numbers appended items after those it holds, one version per append', async () => {
    const created = await datasets.create(ctx, aDatasetInput({ items: captionItems(3) }));
    expect(created).toMatchObject({ itemCount: 3, version: 1 });

    expect(await datasets.addItems(ctx, created.id, { items: captionItems(2, 3) })).toEqual({ added: 2, itemCount: 5, version: 2 });

    const { items } = await datasets.items(ctx, created.id, { limit: 10 });
    expect(items.map((item) => [item.index, item.input])).toEqual(captionItems(5).map((item, i) => [i, item.input]));
    expect(await datasets.get(ctx, created.id)).toMatchObject({ itemCount: 5, version: 2 });
  });

  it('loses no item of appends that race each other, and numbers them without a gap or a repeat', async () => {
    const { id } = await datasets.create(ctx, aDatasetInput({ items: [] }));
    const appends = await Promise.all(Array.from({ length: 5 }, (_, a) => datasets.addItems(ctx, id, { items: captionItems(3, a * 3) })));

    expect(appends.map((a) => a.version).sort()).toEqual([2, 3, 4, 5, 6]);
    const items = (await allPages((page: PageRequest<number>) => datasets.items(ctx, id, page), 4)).flat();
    expect(items.map((item) => item.index)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    // Each append's items stay together, in the order they were sent.
    const prompts = items.map((item) => (item.input as { prompt: string }).prompt);
    expect([...prompts].sort()).toEqual(
      captionItems(15)
        .map((item) => (item.input as { prompt: string }).prompt)
        .sort(),
    );
    for (let at = 0; at < 15; at += 3) {
      const first = Number(prompts[at].split(' ')[1]);
      expect(prompts.slice(at, at + 3)).toEqual([`clip ${first}`, `clip ${first + 1}`, `clip ${first + 2}`]);
    }
  });

  it('refuses an empty append with validation_failed naming items', async () => {
    const { id } = await datasets.create(ctx, aDatasetInput());
    await expect(datasets.addItems(ctx, id, { items: [] })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [{ path: 'items', message: 'must hold at least one item' }],
    });
  });

  it('pages items by index and datasets newest first, each once', async () => {
    const made: DatasetView[] = [];
    for (let i = 0; i < 5; i++) made.push(await datasets.create(ctx, aDatasetInput({ name: `D${i}`, items: captionItems(i) })));
    await datasets.create(aProjectContext('prj_elsewhere'), aDatasetInput({ name: 'Elsewhere' }));

    const pages = await allPages((page: PageRequest<string>) => datasets.list(ctx, {}, page), 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((d) => d.name)).toEqual(['D4', 'D3', 'D2', 'D1', 'D0']);

    const itemPages = await allPages((page: PageRequest<number>) => datasets.items(ctx, made[4].id, page), 3);
    expect(itemPages.map((page) => page.map((item) => item.index))).toEqual([[0, 1, 2], [3]]);
  });

  it('refuses to delete a dataset a live benchmark uses, with conflict naming it; deletes it once the benchmark is gone', async () => {
    const dataset = await datasets.create(ctx, aDatasetInput());
    const benchmark = await benchmarks.create(ctx, aBenchmarkInput(dataset.id));

    await expect(datasets.delete(ctx, dataset.id)).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      detail: `The dataset is used by benchmark '${benchmark.id}'; delete that first`,
    });
    await benchmarks.delete(ctx, benchmark.id);
    expect(await datasets.delete(ctx, dataset.id)).toEqual({ id: dataset.id, deleted: true });
    await expect(datasets.get(ctx, dataset.id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });

  it("reads, appends to and deletes only the caller's project's datasets", async () => {
    const { id } = await datasets.create(ctx, aDatasetInput());
    const stranger = aProjectContext('prj_stranger');
    for (const attempt of [
      datasets.get(stranger, id),
      datasets.items(stranger, id, { limit: 5 }),
      datasets.addItems(stranger, id, { items: captionItems(1) }),
      datasets.delete(stranger, id),
    ]) {
      await expect(attempt).rejects.toMatchObject({ code: ErrorCode.NotFound });
    }
    expect(await datasets.get(ctx, id)).toMatchObject({ itemCount: 3, version: 1 });
  });
});
