import { expect } from '@jest/globals';
import type { ProjectContext, ScoreView, StreamScore, TraceIngestMessage, TraceInput, TraceListFilters, TraceView } from '@cinetrace/contracts';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { listTraces } from '../reads/trace-list.fixtures';
import { TraceReadsService } from '../reads/trace-reads.service';
import { TraceWriter } from '../store/trace-writer';
import { traceIngestStore } from '../trace-ingest.module';
import { deleteScoresOfTraces } from './scores.store';
import { ScoresService } from './scores.service';

let seq = 0;
const context = (projectId: string): ProjectContext => ({ orgId: 'org_1', apiKeyId: 'key_1', requestId: 'req_1', projectId });
const newProject = () => context(`proj_scores_${++seq}`);
const T0 = Date.UTC(2030, 0, 1);
const message = (ctx: ProjectContext, trace: TraceInput, scores?: StreamScore[]): TraceIngestMessage => ({
  ingestId: `ing_scores_${++seq}`,
  projectId: ctx.projectId,
  receivedAt: T0,
  trace,
  ...(scores ? { scores } : {}),
});
const aTrace = (id: string, startTime = T0): TraceInput => ({ id, startTime, spans: [{ id: 's1', name: 'render', startTime }] });
const problem = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; errors?: Array<{ path: string }> };
  }
  throw new Error('expected a refusal');
};

// Both stores: the idempotent insert, the configs' unique name, the reads beside the traces and the stream's scores.
describe.each(TEST_STORES)('scores on %s', (kind) => {
  let store: TestStore;
  let scores: ScoresService;
  let writer: TraceWriter;
  let reads: TraceReadsService;

  const traceOf = async (ctx: ProjectContext, id: string) => (await reads.get({ ctx, id })).value<TraceView>();
  const list = async (ctx: ProjectContext, filters: TraceListFilters = {}) => (await listTraces(reads, { ctx, filters, page: { limit: 50 } })).items;

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    scores = new ScoresService(store.dataSource);
    writer = new TraceWriter(store.dataSource);
    reads = new TraceReadsService(store.dataSource);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it('stores a score before its trace, and shows it on the trace once both exist', async () => {
    const ctx = newProject();
    const { score, created } = await scores.create({ ctx, input: { traceId: 'tr_early', name: 'quality', value: 0.7, comment: 'crisp' } });
    expect(created).toBe(true);
    expect(score).toEqual({
      id: expect.stringMatching(/^sc_/),
      traceId: 'tr_early',
      spanId: null,
      name: 'quality',
      value: 0.7,
      stringValue: null,
      dataType: 'numeric',
      source: 'api',
      comment: 'crisp',
      configId: null,
      evaluatorId: null,
      author: 'key_1',
      createdAt: expect.any(String),
    });
    await writer.store([message(ctx, aTrace('tr_early'))]);
    expect((await traceOf(ctx, 'tr_early')).scores).toEqual([score]);
    expect((await list(ctx))[0].scores).toEqual({ quality: 0.7 });
  });

  it('answers a client id sent again: the same score with the same body, a conflict with another', async () => {
    const ctx = newProject();
    const input = { id: 'sc_mine', traceId: 'tr_1', spanId: 's1', name: 'ok', value: true };
    const first = await scores.create({ ctx, input });
    const again = await scores.create({ ctx, input });
    expect(first.created).toBe(true);
    expect(again).toEqual({ score: first.score, created: false });
    expect(await problem(scores.create({ ctx, input: { ...input, value: false } }))).toMatchObject({ code: 'conflict' });
    // Another project's id space is its own.
    expect((await scores.create({ ctx: newProject(), input: { ...input, value: false } })).created).toBe(true);
  });

  it('checks values against a config by id or by a live config of the name, and names `value`', async () => {
    const ctx = newProject();
    const config = await scores.createConfig({
      ctx,
      input: {
        name: 'verdict',
        dataType: 'categorical',
        categories: [
          { label: 'bad', value: 0 },
          { label: 'good', value: 1 },
        ],
      },
    });
    expect(await problem(scores.createConfig({ ctx, input: { name: 'verdict', dataType: 'boolean' } }))).toMatchObject({ code: 'conflict' });
    const good = await scores.create({ ctx, input: { traceId: 't', name: 'verdict', value: 'good' } });
    expect(good.score).toMatchObject({ value: 1, stringValue: 'good', dataType: 'categorical', configId: config.id });
    expect((await problem(scores.create({ ctx, input: { traceId: 't', name: 'verdict', value: 'meh' } }))).errors).toEqual([expect.objectContaining({ path: 'value' })]);
    expect((await problem(scores.create({ ctx, input: { traceId: 't', name: 'verdict', configId: 'scfg_none', value: 'good' } }))).errors).toEqual([
      expect.objectContaining({ path: 'configId' }),
    ]);
    // Archived, it no longer checks scores of its name; by its id it still does.
    const archived = await scores.updateConfig({ ctx, id: config.id, input: { archived: true, description: 'old' } });
    expect(archived).toMatchObject({ archived: true, description: 'old', dataType: 'categorical' });
    expect((await scores.create({ ctx, input: { traceId: 't', name: 'verdict', value: 'meh' } })).score.configId).toBeNull();
    expect((await problem(scores.create({ ctx, input: { traceId: 't', name: 'verdict', configId: config.id, value: 'meh' } }))).code).toBe('validation_failed');
    expect((await scores.listConfigs({ ctx, page: { limit: 10 } })).items).toEqual([archived]);
    expect(await problem(scores.updateConfig({ ctx: newProject(), id: config.id, input: { archived: false } }))).toMatchObject({ code: 'not_found' });
  });

  it('stores a batch item by item, and lists scores newest first by its filters and keyset', async () => {
    const ctx = newProject();
    const batch = await scores.batch({
      ctx,
      items: [
        { id: 'a', traceId: 't1', name: 'quality', value: 0.1 },
        { id: 'b', traceId: 't1', spanId: 's1', name: 'quality', value: 0.2, source: 'annotation' },
        { traceId: 't1', name: '', value: 1 },
        { id: 'c', traceId: 't2', name: 'quality', value: 0.3 },
        { id: 'a', traceId: 't1', name: 'quality', value: 0.9 },
      ],
    });
    expect(batch).toMatchObject({ accepted: 3, rejected: 2 });
    expect(batch.items.map((i) => [i.id, i.result])).toEqual([
      ['a', 'accepted'],
      ['b', 'accepted'],
      [null, 'rejected'],
      ['c', 'accepted'],
      ['a', 'rejected'],
    ]);
    expect(batch.items[2].errors).toEqual([expect.objectContaining({ path: 'name' })]);
    const ids = async (filters = {}, limit = 50) => (await scores.list({ ctx, filters, page: { limit } })).items.map((s: ScoreView) => s.id);
    expect((await ids()).sort()).toEqual(['a', 'b', 'c']);
    expect(await ids({ traceId: 't1', spanId: 's1' })).toEqual(['b']);
    expect(await ids({ source: 'annotation' })).toEqual(['b']);
    expect(await ids({ name: 'other' })).toEqual([]);
    const first = await scores.list({ ctx, filters: {}, page: { limit: 2 } });
    expect(first.nextKey).not.toBeNull();
    const rest = await scores.list({ ctx, filters: {}, page: { limit: 2, after: first.nextKey! } });
    expect([...first.items, ...rest.items].map((s) => s.id).sort()).toEqual(['a', 'b', 'c']);
    expect(rest.nextKey).toBeNull();
  });

  it("deletes a score of the project only; another project's is not found", async () => {
    const ctx = newProject();
    const { score } = await scores.create({ ctx, input: { traceId: 't', name: 'n', value: 1 } });
    expect(await problem(scores.delete({ ctx: newProject(), id: score.id }))).toMatchObject({ code: 'not_found' });
    await scores.delete({ ctx, id: score.id });
    expect(await problem(scores.delete({ ctx, id: score.id }))).toMatchObject({ code: 'not_found' });
  });

  it('keeps the scores a trace message carries, replacing those of the same id, and deletes them with their trace', async () => {
    const ctx = newProject();
    const streamScore = (value: number): StreamScore => ({
      id: 'task_1.score.0',
      spanId: null,
      name: 'exact_match',
      value,
      stringValue: null,
      dataType: 'numeric',
      source: 'benchmark',
      comment: null,
      evaluatorId: null,
      createdAt: T0,
    });
    await writer.store([message(ctx, aTrace('tr_task'), [streamScore(0)])]);
    await writer.store([message(ctx, { id: 'tr_task', spans: [] }, [streamScore(1)])]);
    expect((await traceOf(ctx, 'tr_task')).scores).toEqual([expect.objectContaining({ id: 'task_1.score.0', value: 1, source: 'benchmark', author: null })]);
    await store.dataSource.transaction((manager) => deleteScoresOfTraces(manager, ctx.projectId, ['tr_task']));
    expect((await traceOf(ctx, 'tr_task')).scores).toEqual([]);
  });

  it('filters the trace list by the latest score of a name: within a range, or a category', async () => {
    const ctx = newProject();
    await writer.store([message(ctx, aTrace('low', T0)), message(ctx, aTrace('high', T0 + 1)), message(ctx, aTrace('none', T0 + 2)), message(ctx, aTrace('rated', T0 + 3))]);
    await scores.batch({
      ctx,
      items: [
        { id: 'l', traceId: 'low', name: 'quality', value: 0.2 },
        { id: 'h1', traceId: 'high', name: 'quality', value: 0.1 },
        { id: 'r', traceId: 'rated', name: 'verdict', value: 'good' },
      ],
    });
    // The later score of `high` is the one that counts (and the one its summary shows).
    await new Promise((resolve) => setTimeout(resolve, 5));
    await scores.create({ ctx, input: { id: 'h2', traceId: 'high', name: 'quality', value: 0.9 } });
    const names = async (filters: TraceListFilters) => (await list(ctx, filters)).map((t) => t.id);
    expect(await names({ scoreName: 'quality', scoreMin: 0.5 })).toEqual(['high']);
    expect(await names({ scoreName: 'quality', scoreMax: 0.5 })).toEqual(['low']);
    expect(await names({ scoreName: 'quality', scoreMin: 0.2, scoreMax: 0.9 })).toEqual(['high', 'low']);
    expect(await names({ scoreName: 'quality' })).toEqual(['high', 'low']);
    expect(await names({ scoreName: 'verdict', scoreValue: 'good' })).toEqual(['rated']);
    expect(await names({ scoreName: 'verdict', scoreValue: 'bad' })).toEqual([]);
    const summaries = await list(ctx);
    expect(Object.fromEntries(summaries.map((t) => [t.id, t.scores]))).toEqual({ rated: { verdict: 'good' }, none: {}, high: { quality: 0.9 }, low: { quality: 0.2 } });
    expect(await problem(list(ctx, { scoreMin: 1 }))).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'scoreMin' })] });
  });
});
