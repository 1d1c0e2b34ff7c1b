import { expect } from '@jest/globals';
import type { ProjectContext, TraceGetRequest, TraceIngestMessage, TraceInput, TraceView } from '@cinetrace/contracts';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { EntityManager, type DataSource } from 'typeorm';
import { listTraces } from '../reads/trace-list.fixtures';
import { TraceReadsService } from '../reads/trace-reads.service';
import { traceIngestStore } from '../trace-ingest.module';
import { TraceWriter } from './trace-writer';

const ctx: ProjectContext = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'req_1', projectId: 'proj_1' };
const T0 = Date.UTC(2030, 0, 1);
let ingestSeq = 0;

const message = (trace: TraceInput, projectId = ctx.projectId): TraceIngestMessage => ({
  ingestId: `ing_${++ingestSeq}`,
  projectId,
  receivedAt: T0,
  trace,
});

/** Text that an array literal or a VALUES list must carry unchanged: quotes, backslashes, braces, commas, NULL, unicode. */
const AWKWARD = 'say "hi", {brace} \\back\\slash\\ NULL \'single\' ✓ 视频\nnew line';

// PostgreSQL writes a batch with one unnest statement per table, SQLite with VALUES lists:
// both must store exactly what the client sent.
describe.each(TEST_STORES)('TraceWriter on %s', (kind) => {
  let store: TestStore;
  let dataSource: DataSource;
  let writer: TraceWriter;
  let reads: TraceReadsService;
  /** The GET answer's value (trace-ingest answers with its JSON text). */
  const getTrace = async (request: TraceGetRequest) => (await reads.get(request)).value<TraceView>();

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    dataSource = store.dataSource;
    writer = new TraceWriter(dataSource);
    reads = new TraceReadsService(dataSource);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it('stores a batch of traces with every field as sent, nulls and awkward text included', async () => {
    const traces: TraceInput[] = Array.from({ length: 30 }, (_, t) => ({
      id: `tr_${t}`,
      name: t === 0 ? null : `render ${AWKWARD}`,
      status: 'ok',
      startTime: T0 + t,
      endTime: t === 1 ? null : T0 + t + 500,
      input: { prompt: AWKWARD, n: t },
      metadata: { note: AWKWARD },
      tags: ['bench', `tag-${t % 3}`],
      userId: t === 2 ? null : 'user "42"',
      spans: Array.from({ length: 10 }, (_, s) => ({
        id: `s${s}`,
        parentId: s === 0 ? null : 's0',
        name: `step ${s} ${AWKWARD}`,
        kind: 'llm',
        status: 'ok',
        statusMessage: s === 3 ? AWKWARD : null,
        startTime: T0 + t + s * 10,
        endTime: T0 + t + s * 10 + 5,
        model: s === 4 ? null : 'video-model-xl',
        input: { prompt: AWKWARD },
        output: s === 5 ? undefined : { caption: `{${s}}` },
        usage: { inputTokens: 120 + s },
        costUsd: s === 6 ? null : 0.0012,
        attributes: { 'gen.cfg': 7.5 },
        events: [{ name: 'queued', time: T0 + t + s * 10 + 1 }],
      })),
    }));

    await writer.store(traces.map((trace) => message(trace)));

    for (const [t, sent] of traces.entries()) {
      const view = await getTrace({ ctx, id: sent.id });
      expect(view).toMatchObject({
        id: sent.id,
        name: sent.name,
        endTime: t === 1 ? null : new Date(T0 + t + 500).toISOString(),
        input: sent.input,
        metadata: sent.metadata,
        tags: sent.tags,
        userId: sent.userId,
      });
      expect(view.spans).toHaveLength(10);
      const s3 = view.spans.find((span) => span.id === 's3')!;
      expect(s3).toMatchObject({ name: `step 3 ${AWKWARD}`, statusMessage: AWKWARD, input: { prompt: AWKWARD }, costUsd: 0.0012 });
      expect(view.spans.find((span) => span.id === 's4')!.model).toBeNull();
      expect(view.spans.find((span) => span.id === 's6')!.costUsd).toBeNull();
    }
  });

  it('merges a known trace: present fields replace, spans upserted by id, the same payload twice changes nothing', async () => {
    const first: TraceInput = { id: 'merge_1', name: 'first', metadata: { a: 1 }, tags: ['x'], spans: [{ id: 'a', name: 'a', startTime: T0 }] };
    const second: TraceInput = {
      id: 'merge_1',
      status: 'error',
      metadata: { b: 2 },
      tags: ['y'],
      spans: [
        { id: 'a', name: 'a renamed', startTime: T0 },
        { id: 'b', name: 'b', startTime: T0 + 5 },
      ],
    };
    await writer.store([message(first), message(second)]);
    const merged = await getTrace({ ctx, id: 'merge_1' });

    await writer.store([message(second)]);
    const again = await getTrace({ ctx, id: 'merge_1' });

    expect(merged).toMatchObject({ name: 'first', status: 'error', metadata: { a: 1, b: 2 } });
    expect([...merged.tags].sort()).toEqual(['x', 'y']);
    expect(merged.spans.map((span) => [span.id, span.name])).toEqual([
      ['a', 'a renamed'],
      ['b', 'b'],
    ]);
    expect(again).toEqual(merged);
  });

  it('stores an attribute repeating the span input or output once, and answers it as sent, after a merge too', async () => {
    const prompt = `a lone cyclist under neon rain, ${AWKWARD}, slow dolly at night`.repeat(2);
    const output = { videoUrl: 'https://cdn.example.test/v/1.mp4', frames: 192, note: AWKWARD };
    const attributes = {
      'input.value': prompt,
      'input.mime_type': 'text/plain',
      'output.value': JSON.stringify(output),
      'other.text': 'long, and no copy of either payload '.repeat(3),
    };
    const span = { id: 'copy', name: 'generate', startTime: T0, input: prompt, output, attributes };
    await writer.store([message({ id: 'copies_1', spans: [span] })]);
    const [row] = await dataSource.query<{ attributes: string; attribute_copies: string }[]>(`SELECT attributes, attribute_copies FROM spans WHERE trace_id = 'copies_1'`);
    expect(JSON.parse(row.attribute_copies) as unknown).toEqual({ 'input.value': 'input', 'output.value': 'output' });
    expect(row.attributes).not.toContain('neon rain, say');
    expect(Object.keys(JSON.parse(row.attributes) as object)).toEqual(Object.keys(attributes));

    const stored = await getTrace({ ctx, id: 'copies_1' });
    expect(stored.spans[0].attributes).toEqual(attributes);
    expect(Object.keys(stored.spans[0].attributes!)).toEqual(Object.keys(attributes));

    await writer.store([message({ id: 'copies_1', spans: [{ id: 'copy', name: 'renamed', startTime: T0 }] })]);
    const merged = await getTrace({ ctx, id: 'copies_1' });
    expect(merged.spans[0]).toMatchObject({ name: 'renamed', input: prompt, output, attributes });
  });

  it('stores new traces without reading any, and merges a known one sent beside them', async () => {
    await writer.store([message({ id: 'known_1', name: 'known', spans: [{ id: 'a', name: 'a', startTime: T0, endTime: T0 + 5 }] })]);
    const query = jest.spyOn(EntityManager.prototype, 'query');
    try {
      await writer.store([message({ id: 'new_1', name: 'new', spans: [{ id: 'n', name: 'n', startTime: T0 }] }), message({ id: 'new_2', spans: [] })]);
      const afterNew = query.mock.calls.map(([sql]) => sql.trim().split(/\s+/)[0].toUpperCase());
      query.mockClear();
      await writer.store([
        message({ id: 'new_3', name: 'third', spans: [] }),
        message({ id: 'known_1', tags: ['late'], spans: [{ id: 'b', name: 'b', startTime: T0 + 10, endTime: T0 + 20 }] }),
      ]);
      const afterMixed = query.mock.calls.map(([sql]) => sql.trim().split(/\s+/)[0].toUpperCase());

      expect(afterNew).not.toContain('SELECT');
      expect(afterMixed).toContain('SELECT');
    } finally {
      query.mockRestore();
    }

    expect(await getTrace({ ctx, id: 'new_1' })).toMatchObject({ name: 'new', spanCount: 1 });
    expect(await getTrace({ ctx, id: 'new_3' })).toMatchObject({ name: 'third', spanCount: 0 });
    const known = await getTrace({ ctx, id: 'known_1' });
    expect(known).toMatchObject({ name: 'known', tags: ['late'], spanCount: 2 });
    expect(known.spans.map((span) => span.id)).toEqual(['a', 'b']);
  });

  it('keeps the same trace id in two projects apart', async () => {
    await writer.store([message({ id: 'shared', name: 'one', spans: [] }), message({ id: 'shared', name: 'two', spans: [] }, 'proj_2')]);

    expect((await getTrace({ ctx, id: 'shared' })).name).toBe('one');
    expect((await getTrace({ ctx: { ...ctx, projectId: 'proj_2' }, id: 'shared' })).name).toBe('two');
  });

  describe('a row stored before times were checked', () => {
    const FAR = 8_700_000_000_000_000;
    const bad = { ...ctx, projectId: 'proj_bad_times' };

    beforeAll(async () => {
      await writer.store([message({ id: 'good', startTime: T0, spans: [] }, bad.projectId)]);
      await writer.store([
        message(
          {
            id: 'bad',
            startTime: T0,
            endTime: T0 + 1,
            spans: [
              { id: 's', name: 's', startTime: T0 },
              { id: 'ok', name: 'ok', startTime: T0 },
            ],
          },
          bad.projectId,
        ),
      ]);
      // What the old validation let through, written as it would have been.
      const p = (n: number) => (kind === 'postgres' ? `$${n}` : '?');
      await dataSource.query(`UPDATE traces SET start_time = ${p(1)}, end_time = ${p(2)} WHERE project_id = ${p(3)} AND id = 'bad'`, [FAR, FAR + 5, bad.projectId]);
      await dataSource.query(`UPDATE spans SET start_time = ${p(1)}, end_time = ${p(2)}, events = ${p(3)} WHERE project_id = ${p(4)} AND id = 's'`, [
        FAR,
        -FAR,
        JSON.stringify([{ name: 'e', time: FAR }]),
        bad.projectId,
      ]);
    });

    it('is listed, with the time at the end of the range, and the rest of the list with it', async () => {
      const page = await listTraces(reads, { ctx: bad, filters: {}, page: { limit: 10 } });
      expect(page.items.map((t) => t.id)).toEqual(['bad', 'good']);
      expect(page.items[0]).toMatchObject({ startTime: '9999-12-31T23:59:59.999Z', endTime: '9999-12-31T23:59:59.999Z', durationMs: 0 });
      const second = await listTraces(reads, { ctx: bad, filters: {}, page: { limit: 1 } });
      expect(second.nextKey).toEqual([FAR, 'bad']);
      const after = await listTraces(reads, { ctx: bad, filters: {}, page: { limit: 1, after: second.nextKey! } });
      expect(after.items.map((t) => t.id)).toEqual(['good']);
    });

    it('is readable by id, its spans and events clamped the same way', async () => {
      const view = await getTrace({ ctx: bad, id: 'bad' });
      const s = view.spans.find((span) => span.id === 's')!;
      expect(s).toMatchObject({ startTime: '9999-12-31T23:59:59.999Z', endTime: '1970-01-01T00:00:00.000Z', events: [{ name: 'e', time: '9999-12-31T23:59:59.999Z' }] });
      expect(view.spans.find((span) => span.id === 'ok')!.startTime).toBe(new Date(T0).toISOString());
    });

    it('is repaired by sending the trace again with a valid time', async () => {
      await writer.store([message({ id: 'bad', startTime: T0 + 1, spans: [{ id: 's', name: 's', startTime: T0 + 2 }] }, bad.projectId)]);
      const view = await getTrace({ ctx: bad, id: 'bad' });
      expect(view.startTime).toBe(new Date(T0 + 1).toISOString());
      expect(view.spans.find((span) => span.id === 's')!.startTime).toBe(new Date(T0 + 2).toISOString());
    });
  });

  describe('the metadata filter', () => {
    const meta = { ...ctx, projectId: 'proj_metadata' };
    const listed = async (metadata: Record<string, unknown>) => (await listTraces(reads, { ctx: meta, filters: { metadata }, page: { limit: 10 } })).items.map((t) => t.id).sort();

    beforeAll(async () => {
      await writer.store([
        message({ id: 'nested', metadata: { cfg: { a: 1, b: { c: [1, { d: 'x', e: null }] } }, n: 2 }, spans: [] }, meta.projectId),
        message({ id: 'other', metadata: { cfg: { a: 1, b: { c: [{ e: null, d: 'x' }, 1] } }, n: 2.5 }, spans: [] }, meta.projectId),
        message({ id: 'proto', metadata: JSON.parse('{"__proto__":{"p":true},"flag":false}') as Record<string, unknown>, spans: [] }, meta.projectId),
      ]);
    });

    it('matches nested objects whatever the order of their keys, and arrays in their order only', async () => {
      expect(await listed({ cfg: { b: { c: [1, { e: null, d: 'x' }] }, a: 1 } })).toEqual(['nested']);
      expect(await listed({ cfg: { a: 1, b: { c: [{ d: 'x', e: null }, 1] } } })).toEqual(['other']);
      expect(await listed({ cfg: { a: 1 } })).toEqual([]);
      expect(await listed({ cfg: { a: 1, b: { c: [1, { d: 'x', e: null }], extra: 1 } } })).toEqual([]);
    });

    it('compares scalars as JSON values: numbers by value, strings, booleans and null by type', async () => {
      expect(await listed({ n: 2 })).toEqual(['nested']);
      expect(await listed({ n: 2.5 })).toEqual(['other']);
      expect(await listed({ n: '2' })).toEqual([]);
      expect(await listed({ flag: false })).toEqual(['proto']);
      expect(await listed({ flag: 0 })).toEqual([]);
      expect(await listed(JSON.parse('{"__proto__":{"p":true}}') as Record<string, unknown>)).toEqual(['proto']);
    });

    it('still filters a project holding metadata stored before U+0000 and lone surrogates were refused', async () => {
      const legacy = { ...ctx, projectId: 'proj_metadata_legacy' };
      await writer.store([message({ id: 'legacy', metadata: { env: 'prod' }, spans: [] }, legacy.projectId)]);
      const p = (n: number) => (kind === 'postgres' ? `$${n}` : '?');
      // As JSON.stringify wrote them: jsonb refuses both escapes.
      const text = JSON.stringify({ env: 'prod', nul: 'a\u0000b', lone: '\ud800', pair: '🎬', slash: '\\u0000' });
      await dataSource.query(`UPDATE traces SET metadata = ${p(1)} WHERE project_id = ${p(2)} AND id = 'legacy'`, [text, legacy.projectId]);
      const list = (metadata: Record<string, unknown>) =>
        listTraces(reads, { ctx: legacy, filters: { metadata }, page: { limit: 10 } }).then((page) => page.items.map((t) => t.id));

      expect(await list({ env: 'prod' })).toEqual(['legacy']);
      expect(await list({ pair: '🎬', slash: '\\u0000' })).toEqual(['legacy']);
      expect(await list({ env: 'dev' })).toEqual([]);
    });

    it('refuses nested keys with quotes and values nested too deep, naming args.metadata', async () => {
      let deep: unknown = 1;
      for (let i = 0; i < 40; i++) deep = { k: deep };
      for (const metadata of [{ cfg: { 'a"b': 1 } }, { cfg: deep }]) {
        await expect(listTraces(reads, { ctx: meta, filters: { metadata }, page: { limit: 10 } })).rejects.toMatchObject({
          errors: [expect.objectContaining({ path: 'args.metadata' })],
        });
      }
    });
  });

  it('writes a receipt only for messages someone waits on (receipt: false leaves none), and stores the trace either way', async () => {
    const waited = message({ id: 'receipt-waited', spans: [{ id: 's1', name: 'a', startTime: T0 }] });
    const unwaited = { ...message({ id: 'receipt-unwaited', spans: [{ id: 's1', name: 'a', startTime: T0 }] }), receipt: false as const };
    const laterPart = { ...message({ id: 'receipt-waited', spans: [{ id: 's2', parentId: 's1', name: 'b', startTime: T0 + 1 }] }), receipt: false as const };
    await writer.store([waited, unwaited, laterPart]);

    const receipts = await reads.receipts(ctx, [waited.ingestId, unwaited.ingestId, laterPart.ingestId]);
    expect(Object.keys(receipts)).toEqual([waited.ingestId]);
    expect(receipts[waited.ingestId]).toMatchObject({ id: 'receipt-waited', spanCount: 2 });
    const [{ count }] = await dataSource.query<{ count: number | string }[]>(
      `SELECT COUNT(*) AS count FROM trace_receipts WHERE ingest_id IN ('${unwaited.ingestId}', '${laterPart.ingestId}')`,
    );
    expect(Number(count)).toBe(0);
    expect((await getTrace({ ctx, id: 'receipt-unwaited' })).spans.map((s) => s.id)).toEqual(['s1']);
    expect((await getTrace({ ctx, id: 'receipt-waited' })).spans.map((s) => s.id)).toEqual(['s1', 's2']);
  });

  describe('limits on the merged trace', () => {
    const lim = { ...ctx, projectId: 'proj_limits' };

    it('keeps 50 tags, records the rest on the trace and on the receipt of the ingest that lost them', async () => {
      const tags = (from: number) => Array.from({ length: 50 }, (_, i) => `t${from + i}`);
      const first = message({ id: 'tagged', tags: tags(0), spans: [] }, lim.projectId);
      const second = message({ id: 'tagged', tags: tags(50), spans: [] }, lim.projectId);
      const third = message({ id: 'tagged', tags: tags(100), spans: [] }, lim.projectId);
      await writer.store([first]);
      await writer.store([second, third]);

      const view = await getTrace({ ctx: lim, id: 'tagged' });
      expect(view.tags).toEqual(tags(0));
      expect(view.dropped).toEqual({ tags: [...tags(50), ...tags(100)], metadataKeys: [], spanIds: [] });
      const receipts = await reads.receipts(lim, [first.ingestId, second.ingestId, third.ingestId]);
      expect(receipts[first.ingestId]).not.toHaveProperty('dropped');
      expect(receipts[second.ingestId].dropped).toEqual({ tags: tags(50), metadataKeys: [], spanIds: [] });
      expect(receipts[third.ingestId].dropped!.tags).toEqual(tags(100));
      const [summary] = (await listTraces(reads, { ctx: lim, filters: { tags: ['t0'] }, page: { limit: 1 } })).items;
      expect(summary.dropped).toEqual(view.dropped);
    });
  });

  it('gives traces stored before the span bound their span bytes when it migrates, close to what a merge counts', async () => {
    const old = { ...ctx, projectId: 'proj_migrated' };
    const spans = Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, name: `s${i}`, startTime: T0 + i, input: { prompt: 'x'.repeat(500 * i) } }));
    await writer.store([message({ id: 'before', spans }, old.projectId)]);
    const p = (n: number) => (kind === 'postgres' ? `$${n}` : '?');
    const spanBytes = async () =>
      Number(
        (await dataSource.query<{ span_bytes: number | string }[]>(`SELECT span_bytes FROM traces WHERE project_id = ${p(1)} AND id = 'before'`, [old.projectId]))[0].span_bytes,
      );
    const counted = await spanBytes();

    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.runMigrations({ transaction: 'each' });

    expect(counted).toBeGreaterThan(3000);
    expect(Math.abs((await spanBytes()) - counted)).toBeLessThan(counted * 0.2);
  });
});
