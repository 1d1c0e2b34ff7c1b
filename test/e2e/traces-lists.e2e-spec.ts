import { Api } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { ids, pageThrough } from './support/lists';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { BATCH, T0, TRACES, TRACE_TEST_TIMEOUT_MS, WAIT, aSpan, aTrace, anId, args, at, eventually, ingest, ingestAll, listIds, readNow, summaryOf, toMs } from './support/traces';
import { Answer, Item } from './support/api-types';

/** The cursor with one alphanumeric character near its middle replaced by another. */
function flipOneCharacter(cursor: string): string {
  for (let i = Math.floor(cursor.length / 2); i < cursor.length; i += 1) {
    if (/[A-Za-z0-9]/.test(cursor[i])) {
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      return cursor.slice(0, i) + replacement + cursor.slice(i + 1);
    }
  }
  throw new Error(`no alphanumeric character to flip in ${cursor}`);
}

/**
 * Three traces to filter, stored one second apart (so newest first is c, b, a):
 * a: ok, 'render', user-1, session-1, tags x y, metadata { env: prod, tier: 2 }
 * b: error, 'Render', user-2, session-1, tags y, metadata { env: prod, tier: '2' }
 * c: running, 'render 2', user-1, session-2, tags x y z, metadata { env: dev }
 */
async function seedFilterable(api: Api): Promise<{ a: string; b: string; c: string }> {
  const a = aTrace({ startTime: at(0), endTime: at(500), name: 'render', userId: 'user-1', sessionId: 'session-1', tags: ['x', 'y'], metadata: { env: 'prod', tier: 2 } });
  const b = aTrace({ startTime: at(1000), status: 'error', name: 'Render', userId: 'user-2', sessionId: 'session-1', tags: ['y'], metadata: { env: 'prod', tier: '2' } });
  const c = aTrace({ startTime: at(2000), name: 'render 2', userId: 'user-1', sessionId: 'session-2', tags: ['x', 'y', 'z'], metadata: { env: 'dev' } });
  // Stored in an order unlike the answer's, so the answer's order is the list's doing.
  await ingestAll(api, [b, c, a]);
  return { a: a.id, b: b.id, c: c.id };
}

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

describe('Traces: lists, paging and isolation', () => {
  const ctx = useStack();

  describe('order and shape', () => {
    it('lists summaries newest startTime first, ties by id descending', async () => {
      const { api } = await inNewProject(ctx.api);
      const base = anId('tie');
      const older = aTrace({ startTime: at(0), input: { big: 'x' }, output: { y: 1 } });
      const tie1 = aTrace({ id: `${base}-1`, startTime: at(60_000) });
      const tie2 = aTrace({ id: `${base}-2`, startTime: at(60_000) });
      const newest = aTrace({ startTime: at(120_000), spans: [aSpan({ startTime: at(120_000), usage: { images: 2 }, costUsd: 0.25, status: 'error' })] });
      await ingestAll(api, [tie1, newest, older, tie2]);

      const response = await api.get<Answer<'listTraces'>>(TRACES);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['data', 'nextCursor']);
      expect(response.body.nextCursor).toBeNull();
      expect(ids(response.body.data)).toEqual([newest.id, tie2.id, tie1.id, older.id]);
      // Each item is the trace's summary: what GET shows, without input, output and spans.
      for (const item of response.body.data) expect(item).toEqual(summaryOf(await readNow(api, item.id)));
      expect(response.body.data[0]).toMatchObject({ usage: { images: 2 }, costUsd: 0.25, errorCount: 1, spanCount: 1 });
    });

    it('shows a trace accepted with 202 (no Prefer: wait) shortly after', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace();
      await ingest(api, trace);
      await eventually('the trace listed', async () => ((await listIds(api)).includes(trace.id) ? true : undefined));
    });

    it('reflects a merge: the new status, tags and name are what filters find', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace({ tags: ['draft'] });
      await ingest(api, trace, { wait: true });
      expect(await listIds(api, { status: 'running' })).toEqual([trace.id]);
      await ingest(api, { id: trace.id, name: 'final cut', endTime: at(1000), status: 'ok', tags: ['final'] }, { wait: true });
      expect(await listIds(api, { status: 'running' })).toEqual([]);
      expect(await listIds(api, { status: 'ok' })).toEqual([trace.id]);
      expect(await listIds(api, { tags: 'draft,final' })).toEqual([trace.id]);
      expect(await listIds(api, { name: 'final cut' })).toEqual([trace.id]);
      expect(await listIds(api, { name: trace.name })).toEqual([]);
      const [summary] = (await api.get<Answer<'listTraces'>>(TRACES)).body.data;
      expect(summary).toMatchObject({ status: 'ok', name: 'final cut', tags: ['draft', 'final'], endTime: at(1000), durationMs: 1000 });
    });
  });

  describe('filters', () => {
    it('filters by status, in the query and in args', async () => {
      const { api } = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(api);
      expect(await listIds(api)).toEqual([c, b, a]);
      expect(await listIds(api, { status: 'ok' })).toEqual([a]);
      expect(await listIds(api, { status: 'error' })).toEqual([b]);
      expect(await listIds(api, { status: 'running' })).toEqual([c]);
      expect(await listIds(api, args({ status: 'error' }))).toEqual([b]);
      // An explicit parameter wins over the same key in args.
      expect(await listIds(api, { status: 'ok', ...args({ status: 'error' }) })).toEqual([a]);
      expectProblem(await api.get(TRACES, { status: 'done' }), 400, 'validation_failed', ['status']);
    });

    it('filters by exact name', async () => {
      const { api } = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(api);
      expect(await listIds(api, { name: 'render' })).toEqual([a]);
      expect(await listIds(api, { name: 'Render' })).toEqual([b]);
      expect(await listIds(api, args({ name: 'render 2' }))).toEqual([c]);
      expect(await listIds(api, { name: 'rend' })).toEqual([]);
    });

    it('filters by userId and by sessionId', async () => {
      const { api } = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(api);
      expect(await listIds(api, { userId: 'user-1' })).toEqual([c, a]);
      expect(await listIds(api, args({ userId: 'user-2' }))).toEqual([b]);
      expect(await listIds(api, { sessionId: 'session-1' })).toEqual([b, a]);
      expect(await listIds(api, args({ sessionId: 'session-2' }))).toEqual([c]);
      expect(await listIds(api, { userId: 'user-1', sessionId: 'session-1' })).toEqual([a]);
      expect(await listIds(api, { userId: 'nobody' })).toEqual([]);
    });

    it('filters by tags: every tag given must be present (comma list in the query, array in args)', async () => {
      const { api } = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(api);
      expect(await listIds(api, { tags: 'y' })).toEqual([c, b, a]);
      expect(await listIds(api, { tags: 'x' })).toEqual([c, a]);
      expect(await listIds(api, { tags: 'x,y' })).toEqual([c, a]);
      expect(await listIds(api, { tags: 'y,z' })).toEqual([c]);
      expect(await listIds(api, { tags: 'x,nope' })).toEqual([]);
      expect(await listIds(api, args({ tags: ['x', 'y'] }))).toEqual([c, a]);
      expect(await listIds(api, args({ tags: ['z', 'x', 'y'] }))).toEqual([c]);
    });

    it('filters by metadata in args, exact match on each key', async () => {
      const { api } = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(api);
      expect(await listIds(api, args({ metadata: { env: 'prod' } }))).toEqual([b, a]);
      expect(await listIds(api, args({ metadata: { env: 'prod', tier: 2 } }))).toEqual([a]);
      expect(await listIds(api, args({ metadata: { tier: '2' } }))).toEqual([b]);
      expect(await listIds(api, args({ metadata: { env: 'dev' } }))).toEqual([c]);
      expect(await listIds(api, args({ metadata: { env: 'staging' } }))).toEqual([]);
      expect(await listIds(api, args({ metadata: { env: 'prod' }, status: 'ok' }))).toEqual([a]);
    });

    it('refuses metadata in the query string, and metadata in args that is not an object', async () => {
      const { api } = await inNewProject(ctx.api);
      await seedFilterable(api);
      expectProblem(await api.get(TRACES, { metadata: '{"env":"prod"}' }), 400, 'validation_failed', ['metadata']);
      expectProblem(await api.get(TRACES, { metadata: 'env:prod' }), 400, 'validation_failed', ['metadata']);
      expectProblem(await api.get(TRACES, args({ metadata: 'prod' })), 400, 'validation_failed');
      expectProblem(await api.get(TRACES, args({ metadata: ['env'] })), 400, 'validation_failed');
    });

    it('filters on startTime: from inclusive, to exclusive, as ISO or epoch ms', async () => {
      const { api } = await inNewProject(ctx.api);
      const traces = [0, 1000, 2000, 3000].map((offset) => aTrace({ startTime: at(offset) }));
      await ingestAll(api, traces);
      const [t0, t1, t2, t3] = traces.map((t) => t.id);
      expect(await listIds(api, { from: at(1000), to: at(3000) })).toEqual([t2, t1]);
      expect(await listIds(api, { from: T0 + 1000, to: T0 + 3000 })).toEqual([t2, t1]);
      expect(await listIds(api, args({ from: T0 + 1000, to: at(3000) }))).toEqual([t2, t1]);
      expect(await listIds(api, args({ from: at(1000), to: T0 + 3000 }))).toEqual([t2, t1]);
      expect(await listIds(api, { from: at(2000) })).toEqual([t3, t2]);
      expect(await listIds(api, { to: at(1000) })).toEqual([t0]);
      expect(await listIds(api, { from: at(999), to: at(1001) })).toEqual([t1]);
      expect(await listIds(api, { from: at(1000), to: at(1000) })).toEqual([]);
      // Another zone, same instant.
      expect(await listIds(api, { from: '2026-03-01T11:00:02.000+01:00' })).toEqual([t3, t2]);
      expectProblem(await api.get(TRACES, { from: 'yesterday' }), 400, 'validation_failed', ['from']);
      expectProblem(await api.get(TRACES, args({ to: 'tomorrow' })), 400, 'validation_failed');
    });

    it('refuses from/to that name no single instant: no zone, or a negative epoch', async () => {
      const { api } = await inNewProject(ctx.api);
      await ingestAll(api, [aTrace({ startTime: at(0) })]);
      // Without a zone the same text is another instant on every server: refused, as on ingest.
      expectProblem(await api.get(TRACES, { to: '2026-03-01T10:00:00' }), 400, 'validation_failed', ['to']);
      expectProblem(await api.get(TRACES, args({ from: -1 })), 400, 'validation_failed');
    });

    it('accepts the scoped project id and answers 400 project_mismatch for any other', async () => {
      const { api, projectId } = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(api);
      expect(await listIds(api, { projectId })).toEqual([c, b, a]);
      expect(await listIds(api, args({ projectId }))).toEqual([c, b, a]);
      expectProblem(await api.get(TRACES, { projectId: other.projectId }), 400, 'project_mismatch');
      expectProblem(await api.get(TRACES, args({ projectId: other.projectId })), 400, 'project_mismatch');
      expectProblem(await api.get(TRACES, { projectId: 'prj_does_not_exist' }), 400, 'project_mismatch');
    });

    it('refuses unknown filters, wrong types and args that are not a JSON object', async () => {
      const { api } = await inNewProject(ctx.api);
      await seedFilterable(api);
      expectProblem(await api.get(TRACES, { colour: 'red' }), 400, 'validation_failed', ['colour']);
      expectProblem(await api.get(TRACES, args({ colour: 'red' })), 400, 'validation_failed', ['args.colour']);
      expectProblem(await api.get(TRACES, args({ status: 'done' })), 400, 'validation_failed');
      expectProblem(await api.get(TRACES, args({ tags: [1, 2] })), 400, 'validation_failed');
      expectProblem(await api.get(TRACES, { args: '["status"]' }), 400, 'validation_failed', ['args']);
      expectProblem(await api.get(TRACES, { args: '{"status":' }), 400, 'validation_failed', ['args']);
    });
  });

  describe('limit and paging', () => {
    it.each([0, 201, 'ten', 2.5])('answers 400 naming limit for limit=%s', async (limit) => {
      const { api } = await inNewProject(ctx.api);
      expectProblem(await api.get(TRACES, { limit }), 400, 'validation_failed', ['limit']);
    });

    it('gives 50 summaries by default, with a cursor to the rest', async () => {
      const { api } = await inNewProject(ctx.api);
      const traces = Array.from({ length: 52 }, (_, i) => aTrace({ startTime: at(i * 10), spans: [] }));
      const batch = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces }, { headers: WAIT });
      expect(batch.status).toBe(207);
      expect(batch.body).toMatchObject({ accepted: 52, rejected: 0 });
      const first = await api.get<Answer<'listTraces'>>(TRACES);
      expect(first.body.data).toHaveLength(50);
      expect(typeof first.body.nextCursor).toBe('string');
      const rest = await api.get<Answer<'listTraces'>>(TRACES, { cursor: first.body.nextCursor ?? undefined });
      expect(ids(rest.body.data)).toEqual([traces[1].id, traces[0].id]);
      expect(rest.body.nextCursor).toBeNull();
    });

    it('pages through 7 traces 3 at a time: each once, newest first, while newer ones arrive', async () => {
      const { api } = await inNewProject(ctx.api);
      const base = anId('page');
      // Three share a start, so a page boundary falls inside the tie.
      const offsets = [0, 1000, 2000, 2000, 2000, 3000, 4000];
      const traces = offsets.map((offset, i) => aTrace({ id: `${base}-${i}`, startTime: at(offset) }));
      await ingestAll(api, traces);
      const expected = [...traces].sort((x, y) => toMs(y.startTime) - toMs(x.startTime) || (x.id < y.id ? 1 : -1)).map((t) => t.id);
      let added = 0;
      const { items, pages } = await pageThrough<Item<'listTraces'>>(api, TRACES, { limit: 3 }, async () => {
        added += 1;
        await ingest(api, aTrace({ startTime: at(10_000 + added) }), { wait: true });
      });
      expect(ids(items)).toEqual(expected);
      expect(pages).toBe(3);
      expect(added).toBe(2);
      expect(await listIds(api, { limit: 200 })).toHaveLength(7 + added);
    });

    it('keeps the filters across pages', async () => {
      const { api } = await inNewProject(ctx.api);
      const traces = Array.from({ length: 8 }, (_, i) => aTrace({ startTime: at(i * 1000), status: i % 2 ? 'error' : 'ok' }));
      await ingestAll(api, traces);
      const failed = traces
        .filter((t) => t.status === 'error')
        .map((t) => t.id)
        .reverse();
      const { items } = await pageThrough<Item<'listTraces'>>(api, TRACES, { limit: 2, status: 'error' });
      expect(ids(items)).toEqual(failed);
      const viaArgs = await pageThrough<Item<'listTraces'>>(api, TRACES, { limit: 3, ...args({ status: 'error' }) });
      expect(ids(viaArgs.items)).toEqual(failed);
    });

    it.each([
      ['one character changed', (c: string) => flipOneCharacter(c)],
      ['truncated', (c: string) => c.slice(0, Math.ceil(c.length / 2))],
      ['with characters appended', (c: string) => `${c}AAAA`],
      ['a made-up string', () => 'bm90LWEtY3Vyc29y'],
    ])('rejects a cursor %s: 400 invalid_cursor', async (_label, tamper) => {
      const { api } = await inNewProject(ctx.api);
      await ingestAll(
        api,
        [0, 1, 2].map((i) => aTrace({ startTime: at(i * 1000) })),
      );
      const cursor = (await api.get<Answer<'listTraces'>>(TRACES, { limit: 1 })).body.nextCursor!;
      expect(typeof cursor).toBe('string');
      expect((await api.get(TRACES, { limit: 1, cursor })).status).toBe(200);
      const tampered = tamper(cursor);
      expect(tampered).not.toBe(cursor);
      expectProblem(await api.get(TRACES, { limit: 1, cursor: tampered }), 400, 'invalid_cursor');
    });
  });

  describe('isolation', () => {
    it("lists only the scoped project's traces, whatever the filters", async () => {
      const owner = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const { a, b, c } = await seedFilterable(owner.api);
      const mine = aTrace({ startTime: at(1500), userId: 'user-1', tags: ['x'] });
      await ingest(other.api, mine, { wait: true });
      expect(await listIds(other.api)).toEqual([mine.id]);
      expect(await listIds(other.api, { userId: 'user-1' })).toEqual([mine.id]);
      expect(await listIds(other.api, { sessionId: 'session-1' })).toEqual([]);
      expect(await listIds(other.api, args({ metadata: { env: 'prod' } }))).toEqual([]);
      expect(await listIds(owner.api)).toEqual([c, b, a]);
      expect(await listIds(owner.api, { tags: 'x' })).toEqual([c, a]);
    });
  });
});
