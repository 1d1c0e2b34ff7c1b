import { expect } from '@jest/globals';
import { DomainError, type ProjectContext, type TraceIngestMessage, type TraceInput, type TraceView } from '@cinetrace/contracts';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { TraceReadsService } from '../reads/trace-reads.service';
import { TraceWriter } from '../store/trace-writer';
import { traceIngestStore } from '../trace-ingest.module';
import { DEFAULT_MODEL_PRICES } from './default-model-prices';
import { ModelPriceTables, PRICE_TABLE_TTL_MS } from './model-price-tables';
import { ModelPricesService } from './model-prices.service';

let seq = 0;
const context = (projectId: string): ProjectContext => ({ orgId: 'org_1', apiKeyId: 'key_1', requestId: 'req_1', projectId });
const newProject = () => context(`proj_prices_${++seq}`);
const message = (ctx: ProjectContext, trace: TraceInput): TraceIngestMessage => ({
  ingestId: `ing_prices_${++seq}`,
  projectId: ctx.projectId,
  receivedAt: Date.UTC(2030, 0, 1),
  trace,
});
/** A trace of one span of `model` with 1000 input and 100 output tokens, no cost. */
const llmTrace = (model: string, extra: Partial<TraceInput['spans'][number]> = {}): TraceInput => ({
  id: `tr_prices_${++seq}`,
  spans: [{ id: 's1', name: 'chat', startTime: Date.UTC(2030, 0, 1), model, usage: { inputTokens: 1000, outputTokens: 100 }, ...extra }],
});

// Both stores: the PUT's upsert, the version a cached table is checked by, and the spans' cost_source column.
describe.each(TEST_STORES)('model prices on %s', (kind) => {
  let store: TestStore;
  let tables: ModelPriceTables;
  let service: ModelPricesService;
  let writer: TraceWriter;
  let reads: TraceReadsService;

  const span = async (ctx: ProjectContext, id: string) => (await reads.get({ ctx, id })).value<TraceView>().spans[0];
  const stored = async (ctx: ProjectContext, trace: TraceInput, through = writer) => {
    await through.store([message(ctx, trace)]);
    return span(ctx, trace.id);
  };

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    tables = new ModelPriceTables();
    service = new ModelPricesService(store.dataSource, tables);
    writer = new TraceWriter(store.dataSource, undefined, tables);
    reads = new TraceReadsService(store.dataSource);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it("answers the project's entries, then the defaults, each saying where it comes from", async () => {
    const ctx = newProject();
    const before = await service.get({ ctx });
    expect(before.data).toHaveLength(DEFAULT_MODEL_PRICES.length);
    expect(before.data.every((e) => e.source === 'default')).toBe(true);
    expect(before.nextCursor).toBeNull();

    const put = await service.put({
      ctx,
      input: {
        entries: [
          { match: 'acme-llm', unit: 'input_token', usd: 0.00001 },
          { match: { regex: '^acme' }, unit: 'request', usd: 0.01 },
        ],
      },
    });
    expect(put.data).toEqual([
      { match: 'acme-llm', unit: 'input_token', usd: 0.00001, resolution: null, source: 'project', asOf: expect.any(String) },
      { match: { regex: '^acme' }, unit: 'request', usd: 0.01, resolution: null, source: 'project', asOf: put.data[0].asOf },
    ]);
    const after = await service.get({ ctx });
    expect(after.data.slice(0, 2)).toEqual(put.data);
    expect(after.data.slice(2)).toEqual(before.data);
  });

  it("keeps each project's entries to itself", async () => {
    const [mine, theirs] = [newProject(), newProject()];
    await service.put({ ctx: mine, input: { entries: [{ match: 'gpt-4o', unit: 'input_token', usd: 1 }] } });
    expect((await service.get({ ctx: theirs })).data.some((e) => e.source === 'project')).toBe(false);
    // Their span of the same model is priced by the defaults (2.50 USD per million input tokens), not by mine.
    expect(await stored(theirs, llmTrace('gpt-4o'))).toMatchObject({ costUsd: 0.0035, costSource: 'computed' });
    expect(await stored(mine, llmTrace('gpt-4o'))).toMatchObject({ costUsd: 1000.001, costSource: 'computed' });
  });

  it('refuses an invalid PUT naming the field, and keeps the entries it had', async () => {
    const ctx = newProject();
    await service.put({ ctx, input: { entries: [{ match: 'acme', unit: 'request', usd: 0.5 }] } });
    const refused = await service.put({ ctx, input: { entries: [{ match: { regex: '(a)\\1' }, unit: 'request', usd: 1 }] } }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).errors?.map((e) => e.path)).toEqual(['entries[0].match.regex']);
    expect((await service.get({ ctx })).data[0]).toMatchObject({ match: 'acme', usd: 0.5 });
  });

  it('stores a computed cost and its source, a sent cost as sent, and no source without a cost', async () => {
    const ctx = newProject();
    await service.put({
      ctx,
      input: {
        entries: [
          { match: 'acme-video', unit: 'video_second', usd: 0.2 },
          { match: 'acme-video', unit: 'video_second', usd: 0.5, resolution: '1080p' },
        ],
      },
    });
    const video = {
      id: `tr_prices_${++seq}`,
      spans: [{ id: 's1', name: 'render', startTime: 0, model: 'acme-video', usage: { videoSeconds: 8 }, output: { url: 'https://cdn.example/a.mp4', width: 1920, height: 1080 } }],
    };
    expect(await stored(ctx, video)).toMatchObject({ costUsd: 4, costSource: 'computed' });
    expect(await stored(ctx, llmTrace('gpt-4o', { costUsd: 0.25 }))).toMatchObject({ costUsd: 0.25, costSource: 'sent' });
    expect(await stored(ctx, llmTrace('unknown-model'))).toMatchObject({ costUsd: null, costSource: null });
    const trace = (await reads.get({ ctx, id: video.id })).value<TraceView>();
    expect(trace.costUsd).toBe(4);
  });

  it('prices spans stored after a PUT by it, and leaves those stored before as they were', async () => {
    const ctx = newProject();
    const early = llmTrace('acme-llm');
    expect(await stored(ctx, early)).toMatchObject({ costUsd: null, costSource: null });
    await service.put({ ctx, input: { entries: [{ match: 'acme-llm', unit: 'output_token', usd: 0.001 }] } });
    expect(await stored(ctx, llmTrace('acme-llm'))).toMatchObject({ costUsd: 0.1, costSource: 'computed' });
    expect(await span(ctx, early.id)).toMatchObject({ costUsd: null, costSource: null });
  });

  it('reaches another instance (its cached table) within the time to live', async () => {
    const ctx = newProject();
    let now = 1_000_000;
    const other = new ModelPriceTables();
    other.now = () => now;
    const otherWriter = new TraceWriter(store.dataSource, undefined, other);
    await service.put({ ctx, input: { entries: [{ match: 'acme-llm', unit: 'output_token', usd: 0.001 }] } });
    expect(await stored(ctx, llmTrace('acme-llm'), otherWriter)).toMatchObject({ costUsd: 0.1 });
    await service.put({ ctx, input: { entries: [{ match: 'acme-llm', unit: 'output_token', usd: 0.002 }] } });
    now += PRICE_TABLE_TTL_MS - 1;
    expect(await stored(ctx, llmTrace('acme-llm'), otherWriter)).toMatchObject({ costUsd: 0.1 });
    now += 1;
    expect(await stored(ctx, llmTrace('acme-llm'), otherWriter)).toMatchObject({ costUsd: 0.2 });
  });
});
