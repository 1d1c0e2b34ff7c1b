import { expect } from '@jest/globals';
import {
  ErrorCode,
  type ProjectContext,
  type PageRequest,
  type TraceIngestMessage,
  type TraceInput,
  type TraceListFilters,
  type TraceListKey,
  type TraceView,
} from '@cinetrace/contracts';
import { aProjectContext, allPages, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { TraceWriter } from '../store/trace-writer';
import { traceIngestStore } from '../trace-ingest.module';
import { listTraces } from './trace-list.fixtures';
import { TraceReadsService } from './trace-reads.service';

const T0 = Date.UTC(2030, 0, 1);
let ingests = 0;

const ingest = (ctx: ProjectContext, trace: TraceInput): TraceIngestMessage => ({ ingestId: `ing_${++ingests}`, projectId: ctx.projectId, receivedAt: T0, trace });

// trace-ingest's reads on both of its stores: keyset pages, filters, project scoping, receipts.
describe.each(TEST_STORES)('TraceReadsService on %s', (kind) => {
  let store: TestStore;
  let writer: TraceWriter;
  let reads: TraceReadsService;
  let projects = 0;
  let ctx: ProjectContext;

  const ids = async (filters: TraceListFilters, limit = 100) =>
    (await allPages((page: PageRequest<TraceListKey>) => listTraces(reads, { ctx, filters, page }), limit)).flat().map((t) => t.id);

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    writer = new TraceWriter(store.dataSource);
    reads = new TraceReadsService(store.dataSource);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    ctx = aProjectContext(`prj_${++projects}`);
  });

  describe('the list', () => {
    it('pages newest first by (startTime, id): every trace once, ties on startTime included, at any page size', async () => {
      // Four traces share each start time, so pages break in the middle of a tie.
      const traces: TraceInput[] = Array.from({ length: 17 }, (_, i) => ({ id: `tr_${String(i).padStart(2, '0')}`, startTime: T0 + Math.floor(i / 4) * 1000, spans: [] }));
      await writer.store(traces.map((trace) => ingest(ctx, trace)));
      await writer.store([ingest(aProjectContext('prj_elsewhere'), { id: 'tr_other', startTime: T0, spans: [] })]);
      const newestFirst = [...traces].sort((a, b) => b.startTime! - a.startTime! || (a.id < b.id ? 1 : -1)).map((t) => t.id);

      for (const limit of [1, 3, 4, 5, 17, 50]) {
        const pages = await allPages((page: PageRequest<TraceListKey>) => listTraces(reads, { ctx, filters: {}, page }), limit);
        expect(pages.flat().map((t) => t.id)).toEqual(newestFirst);
        expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
      }
    });

    it('shows each trace as its GET does, but for input, output and spans', async () => {
      const tags = Array.from({ length: 51 }, (_, i) => `tag-${i}`); // one past the limit: the item shows what was dropped
      await writer.store([
        ingest(ctx, {
          id: 'full',
          name: 'render "final"',
          status: 'error',
          startTime: T0,
          endTime: T0 + 2500,
          userId: 'u1',
          sessionId: 's1',
          tags,
          metadata: { model: 'wan-2.1', nested: { fps: 24 } },
          input: { prompt: 'a lighthouse' },
          output: 'done',
          spans: [{ id: 'gen', name: 'generate', startTime: T0, endTime: T0 + 2000, usage: { inputTokens: 12, videoSeconds: 4 }, costUsd: 0.25 }],
        }),
        ingest(ctx, { id: 'bare', startTime: T0 - 1000, spans: [] }),
      ]);

      const { items } = await listTraces(reads, { ctx, filters: {}, page: { limit: 10 } });
      expect(items.map((item) => item.id)).toEqual(['full', 'bare']);
      for (const item of items) {
        const { input: _input, output: _output, spans: _spans, scores: _scores, ...summary } = (await reads.get({ ctx, id: item.id })).value<TraceView>();
        // The GET's scores are the list of them; the list item's, the latest value of each name (none here).
        expect(item).toEqual({ ...summary, scores: {} });
      }
      expect(items[0]).toMatchObject({ projectId: ctx.projectId, costUsd: 0.25, usage: { inputTokens: 12, videoSeconds: 4 }, dropped: { tags: ['tag-50'] } });
    });

    it('keeps its place when traces arrive between pages: nothing already listed again, nothing older skipped', async () => {
      await writer.store(Array.from({ length: 6 }, (_, i) => ingest(ctx, { id: `old_${i}`, startTime: T0 + i, spans: [] })));
      const first = await listTraces(reads, { ctx, filters: {}, page: { limit: 3 } });
      await writer.store([ingest(ctx, { id: 'newer', startTime: T0 + 100, spans: [] })]);
      const rest = await listTraces(reads, { ctx, filters: {}, page: { limit: 10, after: first.nextKey! } });

      expect(first.items.map((t) => t.id)).toEqual(['old_5', 'old_4', 'old_3']);
      expect(rest).toMatchObject({ nextKey: null });
      expect(rest.items.map((t) => t.id)).toEqual(['old_2', 'old_1', 'old_0']);
    });

    it('filters by status, name, user, session, tags (all of them) and time range', async () => {
      await writer.store(
        [
          { id: 'a', name: 'render', status: 'ok', userId: 'u1', sessionId: 's1', tags: ['prod', 'gpu'], startTime: T0 },
          { id: 'b', name: 'render', status: 'error', userId: 'u2', sessionId: 's1', tags: ['prod'], startTime: T0 + 1000 },
          { id: 'c', name: 'upscale', status: 'ok', userId: 'u1', sessionId: 's2', tags: ['gpu'], startTime: T0 + 2000 },
        ].map((trace) => ingest(ctx, { ...trace, spans: [] } as TraceInput)),
      );

      expect(await ids({ status: 'error' })).toEqual(['b']);
      expect(await ids({ name: 'render' })).toEqual(['b', 'a']);
      expect(await ids({ userId: 'u1', sessionId: 's2' })).toEqual(['c']);
      expect(await ids({ tags: ['prod', 'gpu'] })).toEqual(['a']);
      expect(await ids({ from: new Date(T0 + 1000).toISOString(), to: new Date(T0 + 2000).toISOString() })).toEqual(['b']);
      expect(await ids({ name: 'render' }, 1)).toEqual(['b', 'a']);
    });

    it('refuses another projectId with project_mismatch and an unknown status with validation_failed', async () => {
      await expect(listTraces(reads, { ctx, filters: { projectId: 'prj_someone_else' }, page: { limit: 10 } })).rejects.toMatchObject({ code: ErrorCode.ProjectMismatch });
      await expect(listTraces(reads, { ctx, filters: { status: 'sideways' }, page: { limit: 10 } })).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        errors: [{ path: 'status', message: expect.stringContaining('must be one of:') }],
      });
      expect(await listTraces(reads, { ctx, filters: { projectId: ctx.projectId }, page: { limit: 10 } })).toEqual({ items: [], nextKey: null });
    });
  });

  it("reads a trace of the caller's project only, with its spans as a tree", async () => {
    await writer.store([
      ingest(ctx, {
        id: 'tree',
        name: 'render',
        spans: [
          { id: 'root', name: 'root', startTime: T0 },
          { id: 'leaf', parentId: 'root', name: 'leaf', startTime: T0 + 5 },
        ],
      }),
    ]);

    const view = (await reads.get({ ctx, id: 'tree' })).value<TraceView>();
    expect(view).toMatchObject({ id: 'tree', name: 'render', spanCount: 2 });
    expect(view.spans.map((span) => [span.id, span.parentId])).toEqual([
      ['root', null],
      ['leaf', 'root'],
    ]);
    await expect(reads.get({ ctx: aProjectContext('prj_stranger'), id: 'tree' })).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });

  it('answers the stored parents of named spans and their ancestors', async () => {
    await writer.store([
      ingest(ctx, {
        id: 'deep',
        spans: [
          { id: 's1', name: 's1', startTime: T0 },
          { id: 's2', parentId: 's1', name: 's2', startTime: T0 },
          { id: 's3', parentId: 's2', name: 's3', startTime: T0 },
          { id: 'x', name: 'x', startTime: T0 },
        ],
      }),
    ]);
    expect(await reads.parentsOf(ctx, 'deep', ['s3', 'unknown'])).toEqual({ s3: 's2', s2: 's1', s1: null });
    expect(await reads.parentsOf(aProjectContext('prj_stranger'), 'deep', ['s3'])).toEqual({});
  });

  it("answers receipts of stored ingests only, and only the caller's", async () => {
    const stored = ingest(ctx, { id: 'receipted', status: 'ok', spans: [{ id: 'a', name: 'a', startTime: T0 }] });
    await writer.store([stored]);

    expect(await reads.receipts(ctx, [stored.ingestId, 'ing_never_sent'])).toEqual({ [stored.ingestId]: { id: 'receipted', status: 'ok', spanCount: 1 } });
    expect(await reads.receipts(aProjectContext('prj_stranger'), [stored.ingestId])).toEqual({});
  });
});

// PostgreSQL only: there each statement of a READ COMMITTED read sees its own commit, so a
// write can land between two reads. (On SQLite both reads run on the one connection the
// writes use, and nothing interleaves with them there.)
describe('TraceReadsService.get on postgres: a trace and its spans from one snapshot', () => {
  let store: TestStore;
  let writer: TraceWriter;
  let reads: TraceReadsService;
  const ctx = aProjectContext('prj_snapshot');

  beforeAll(async () => {
    store = await openTestStore('postgres', traceIngestStore);
    writer = new TraceWriter(store.dataSource);
    reads = new TraceReadsService(store.dataSource);
  }, 60_000);
  afterAll(() => store?.close());

  it('shows totals that are the sums of the spans it shows, when a write commits between reading the trace and its spans', async () => {
    const spans = (videoSeconds: number) => ['render', 'upscale'].map((id) => ({ id, name: id, startTime: T0, usage: { videoSeconds } }));
    await writer.store([ingest(ctx, { id: 'racing', spans: spans(5) })]);

    // The write-back of probed durations commits just after the trace's row was read.
    const query = PostgresQueryRunner.prototype.query;
    let writeBetween: (() => Promise<unknown>) | undefined = () => writer.store([ingest(ctx, { id: 'racing', spans: spans(2) })]);
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(async function (this: PostgresQueryRunner, ...args: Parameters<typeof query>) {
      const result: unknown = await query.apply(this, args);
      if (writeBetween && args[0].startsWith('SELECT * FROM traces')) {
        const write = writeBetween;
        writeBetween = undefined;
        await write();
      }
      return result;
    });
    let view: TraceView;
    try {
      view = (await reads.get({ ctx, id: 'racing' })).value<TraceView>();
    } finally {
      spy.mockRestore();
    }
    expect(writeBetween).toBeUndefined();
    const shown = view.spans.reduce((sum, span) => sum + (span.usage?.videoSeconds ?? 0), 0);
    expect(view.usage.videoSeconds).toBe(shown);
    // Read again, the write shows whole.
    expect((await reads.get({ ctx, id: 'racing' })).value<TraceView>().usage.videoSeconds).toBe(4);
  });
});
