import { ApiResponse } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { runInTraceStore } from './support/trace-store';
import {
  BATCH,
  T0,
  TRACES,
  TRACE_TEST_TIMEOUT_MS,
  WAIT,
  aSpan,
  aTrace,
  args,
  at,
  getTrace,
  ingest,
  listIds,
  readEventually,
  readNow,
  summaryOf,
  type SentTrace,
} from './support/traces';
import { Answer } from './support/api-types';

/** A safe integer of milliseconds past what a Date can hold (8.64e15). */
const FAR = 8_700_000_000_000_000;
const LAST_MS_ISO = '9999-12-31T23:59:59.999Z';

/** Small span bounds, so one test can reach them without megabytes on the stream. */
const MAX_SPANS = 5;
const MAX_SPAN_BYTES = 4096;

/** POSTs a raw JSON text (what JSON.stringify cannot write: 1e400). */
const postRaw = (api: ReturnType<typeof useStack>['api'], json: string): Promise<ApiResponse> => api.post(TRACES, undefined, { raw: json, contentType: 'application/json' });

const tagRange = (from: number, n: number) => Array.from({ length: n }, (_, i) => `tag-${from + i}`);

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

describe('Traces: times, values and limits that hold over merges', () => {
  const ctx = useStack({ env: { TRACE_MAX_SPANS: String(MAX_SPANS), TRACE_MAX_SPAN_BYTES: String(MAX_SPAN_BYTES) } });

  describe('times within 1970..9999', () => {
    it.each([
      ['a trace start past the Date range', 'startTime', (t: SentTrace) => (t.startTime = FAR)],
      ['a trace end past 9999', 'endTime', (t: SentTrace) => (t.endTime = '9999-12-31T23:59:59-05:00')],
      ['a span start past the Date range', 'spans[2].startTime', (t: SentTrace) => (t.spans[2].startTime = FAR)],
      ['a span end past the Date range', 'spans[0].endTime', (t: SentTrace) => (t.spans[0].endTime = FAR)],
      ['an event time past the Date range', 'spans[1].events[0].time', (t: SentTrace) => (t.spans[1].events = [{ name: 'e', time: FAR }])],
      ['a date that does not exist', 'startTime', (t: SentTrace) => (t.startTime = '2026-02-30T10:00:00Z')],
    ])('refuses %s: 400 naming %s, and stores nothing', async (_label, path, spoil) => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace();
      spoil(trace);
      expectProblem(await api.post(TRACES, trace, { headers: WAIT }), 400, 'validation_failed', [path]);
      expectProblem(await getTrace(api, trace.id), 404, 'not_found');
      expect(await listIds(api)).toEqual([]);
    });

    it('takes the last millisecond of 9999 and writes it back', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace({ startTime: LAST_MS_ISO, spans: [aSpan({ startTime: 0, endTime: LAST_MS_ISO })] });
      await ingest(api, trace, { wait: true });
      const stored = await readNow(api, trace.id);
      expect(stored.startTime).toBe(LAST_MS_ISO);
      expect(stored.spans[0]).toMatchObject({ startTime: '1970-01-01T00:00:00.000Z', endTime: LAST_MS_ISO });
    });

    it('answers 400 naming from or to for list filters out of range, not 500', async () => {
      const { api } = await inNewProject(ctx.api);
      expectProblem(await api.get(TRACES, { from: String(FAR) }), 400, 'validation_failed', ['from']);
      expectProblem(await api.get(TRACES, args({ to: FAR })), 400, 'validation_failed', ['args.to']);
      expectProblem(await api.get(TRACES, { to: '9999-12-31T23:59:59-05:00' }), 400, 'validation_failed', ['to']);
      expectProblem(await api.get(TRACES, args({ from: '2026-02-30T00:00:00Z' })), 400, 'validation_failed', ['args.from']);
      expect((await api.get(TRACES, { to: LAST_MS_ISO })).status).toBe(200);
    });

    it('keeps serving a project whose store holds a time past the range (a row written before the check), until it is sent again', async () => {
      const { api, projectId } = await inNewProject(ctx.api);
      const good = aTrace({ startTime: at(0) });
      const bad = aTrace({ startTime: at(1000) });
      await ingest(api, good, { wait: true });
      await ingest(api, bad, { wait: true });
      await runInTraceStore(ctx.stack, 'UPDATE traces SET start_time = ?, end_time = ? WHERE project_id = ? AND id = ?', [FAR, FAR, projectId, bad.id]);
      await runInTraceStore(ctx.stack, 'UPDATE spans SET start_time = ? WHERE project_id = ? AND trace_id = ? AND id = ?', [FAR, projectId, bad.id, bad.spans[1].id]);

      const list = await api.get<Answer<'listTraces'>>(TRACES);
      expect(list.status).toBe(200);
      expect(list.body.data.map((t) => t.id)).toEqual([bad.id, good.id]);
      expect(list.body.data[0]).toMatchObject({ startTime: LAST_MS_ISO, endTime: LAST_MS_ISO, durationMs: 0 });
      // Paging steps past it with the cursor of the stored value.
      const first = await api.get<Answer<'listTraces'>>(TRACES, { limit: 1 });
      const next = await api.get<Answer<'listTraces'>>(TRACES, { limit: 1, cursor: first.body.nextCursor ?? undefined });
      expect(next.body.data.map((t) => t.id)).toEqual([good.id]);
      const read = await readNow(api, bad.id);
      expect(read.spans.find((s) => s.id === bad.spans[1].id)!.startTime).toBe(LAST_MS_ISO);

      // Sending the trace again with valid times repairs the row.
      await ingest(api, { id: bad.id, startTime: at(1000), endTime: at(2000), spans: [bad.spans[1]] }, { wait: true });
      const repaired = await readNow(api, bad.id);
      expect(repaired).toMatchObject({ startTime: at(1000), endTime: at(2000), durationMs: 1000 });
      expect(repaired.spans.map((s: { startTime: string }) => s.startTime)).not.toContain(LAST_MS_ISO);
    });
  });

  describe('values stored as sent, or refused', () => {
    it('refuses 1e400 (Infinity once parsed) in costUsd, usage or metadata, naming each field', async () => {
      const { api } = await inNewProject(ctx.api);
      const span = (extra: string) => `{"name":"s","startTime":${T0}${extra}}`;
      const response = await postRaw(
        api,
        `{"id":"inf-1","metadata":{"n":1e400},"spans":[${span('')},${span(',"costUsd":1e400')},${span(',"usage":{"inputTokens":-1e400,"images":1e400}')}]}`,
      );
      expectProblem(response, 400, 'validation_failed', ['metadata.n', 'spans[1].costUsd', 'spans[2].usage.images']);
      expectProblem(await getTrace(api, 'inf-1'), 404, 'not_found');
    });

    it('refuses lone surrogates and U+0000 in names, inputs, metadata values and keys, naming each field', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace({ name: 'cut \ud800', input: { prompt: ['ok', '\udfff'] }, metadata: { '\ud83d': 1, ok: 'a\u0000b' } });
      trace.spans[0].name = 'span \udc00';
      const response = await api.post(TRACES, trace, { headers: WAIT });
      expectProblem(response, 400, 'validation_failed', ['name', 'input.prompt[1]', 'metadata.\ufffd', 'metadata.ok', 'spans[0].name']);
      expectProblem(await getTrace(api, trace.id), 404, 'not_found');
    });

    it('stores well-formed text exactly: surrogate pairs, emoji and other planes', async () => {
      const { api } = await inNewProject(ctx.api);
      const text = '🎬 视频 \ud83c\udfac 𝄞';
      const trace = aTrace({ name: text, input: { prompt: text }, metadata: { [text]: text } });
      await ingest(api, trace, { wait: true });
      expect(await readNow(api, trace.id)).toMatchObject({ name: text, input: { prompt: text }, metadata: { [text]: text } });
    });

    // (`__proto__` never gets this far over HTTP: the body parser refuses it; the merge's unit test covers it.)
    it('sums usage keys of any name, toString, valueOf, hasOwnProperty and constructor included', async () => {
      const { api } = await inNewProject(ctx.api);
      const usage = '{"toString":1,"valueOf":2,"hasOwnProperty":3,"constructor":4}';
      const spans = ['a', 'b'].map((id) => `{"id":"${id}","name":"${id}","startTime":${T0},"usage":${usage}}`);
      const response = await api.post(TRACES, undefined, { raw: `{"id":"usage-keys","spans":[${spans.join(',')}]}`, contentType: 'application/json', headers: WAIT });
      expect(response.status).toBe(201);
      const expected = { toString: 2, valueOf: 4, hasOwnProperty: 6, constructor: 8 };
      const read = await api.get(`${TRACES}/usage-keys`);
      expect((JSON.parse(read.text) as Answer<'getTrace'>).usage).toEqual(expected);
      const list = await api.get(TRACES);
      expect((JSON.parse(list.text) as Answer<'listTraces'>).data[0].usage).toEqual(expected);
    });

    it('filters on nested metadata whatever the order of its keys', async () => {
      const { api } = await inNewProject(ctx.api);
      const a = aTrace({ startTime: at(0), metadata: { cfg: { model: 'v2', steps: { n: 30, sampler: ['ddim', { eta: 0 }] } }, tier: 2 } });
      const b = aTrace({ startTime: at(1000), metadata: { cfg: { model: 'v2', steps: { n: 30, sampler: [{ eta: 0 }, 'ddim'] } }, tier: 2 } });
      await ingest(api, a, { wait: true });
      await ingest(api, b, { wait: true });
      expect(await listIds(api, args({ metadata: { cfg: { steps: { sampler: ['ddim', { eta: 0 }], n: 30 }, model: 'v2' } } }))).toEqual([a.id]);
      expect(await listIds(api, args({ metadata: { tier: 2, cfg: { steps: { sampler: [{ eta: 0 }, 'ddim'], n: 30 }, model: 'v2' } } }))).toEqual([b.id]);
      expect(await listIds(api, args({ metadata: { cfg: { model: 'v2' } } }))).toEqual([]);
      expectProblem(await api.get(TRACES, args({ metadata: { cfg: { 'a"b': 1 } } })), 400, 'validation_failed', ['args.metadata']);
    });
  });

  describe('limits on the merged trace', () => {
    it('keeps 50 tags over three POSTs; Prefer: wait tells each POST what it lost, and the trace records it', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = aTrace().id;
      const answers = [];
      for (const from of [0, 50, 100]) answers.push(await ingest(api, { id, tags: tagRange(from, 50) }, { wait: true }));

      expect(answers[0]).toEqual({ id, status: 'running', spanCount: 0 });
      expect(answers.map((a) => a.dropped)).toEqual([
        undefined,
        { tags: tagRange(50, 50), metadataKeys: [], spanIds: [] },
        { tags: tagRange(100, 50), metadataKeys: [], spanIds: [] },
      ]);
      const trace = await readNow(api, id);
      expect(trace.tags).toEqual(tagRange(0, 50));
      expect(trace.dropped).toEqual({ tags: [...tagRange(50, 50), ...tagRange(100, 50)], metadataKeys: [], spanIds: [] });
      const list = await api.get<Answer<'listTraces'>>(TRACES);
      expect(list.body.data[0]).toEqual(summaryOf(trace));
    });

    it('holds the tag limit under concurrent POSTs, and every tag sent is either kept or recorded as dropped', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = aTrace().id;
      const sent = [0, 50, 100].map((from) => tagRange(from, 50));
      const answers = await Promise.all(sent.map((tags) => ingest(api, { id, tags }, { wait: true })));

      const trace = await readNow(api, id);
      expect(trace.tags).toHaveLength(50);
      expect([...trace.tags, ...trace.dropped!.tags].sort()).toEqual(sent.flat().sort());
      // Each POST was told exactly what of it was left out.
      const toldDropped = answers.flatMap((a) => a.dropped?.tags ?? []);
      expect(toldDropped.sort()).toEqual([...trace.dropped!.tags].sort());
    });

    it('keeps metadata within 64 KiB over three POSTs, keeping the keys stored first', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = aTrace().id;
      const blob = 'x'.repeat(40 * 1024);
      await ingest(api, { id, metadata: { first: blob } }, { wait: true });
      const second = await ingest(api, { id, metadata: { second: blob, small: 1 } }, { wait: true });
      const third = await ingest(api, { id, metadata: { third: blob } }, { wait: true });

      expect(second.dropped).toEqual({ tags: [], metadataKeys: ['second'], spanIds: [] });
      expect(third.dropped).toEqual({ tags: [], metadataKeys: ['third'], spanIds: [] });
      const trace = await readNow(api, id);
      expect(trace.metadata).toEqual({ first: blob, small: 1 });
      expect(Buffer.byteLength(JSON.stringify(trace.metadata))).toBeLessThanOrEqual(64 * 1024);
      expect(trace.dropped!.metadataKeys).toEqual(['second', 'third']);
    });

    it(`stores at most ${MAX_SPANS} spans and ${MAX_SPAN_BYTES} bytes of spans, however many POSTs bring them`, async () => {
      const { api } = await inNewProject(ctx.api);
      const id = aTrace().id;
      const span = (n: number, extra = {}) => ({ id: `s${n}`, name: `s${n}`, startTime: T0 + n, ...extra });
      await ingest(api, { id, spans: [span(1), span(2), span(3)] }, { wait: true });
      const second = await ingest(api, { id, spans: [span(4), span(5), span(6), span(7)] }, { wait: true });
      // A change that would take the spans past their bytes is left out; the span keeps what it had.
      const third = await ingest(api, { id, spans: [span(1, { output: 'x'.repeat(MAX_SPAN_BYTES) })] }, { wait: true });

      expect(second).toMatchObject({ spanCount: MAX_SPANS, dropped: { tags: [], metadataKeys: [], spanIds: ['s6', 's7'] } });
      expect(third).toMatchObject({ spanCount: MAX_SPANS, dropped: { spanIds: ['s1'] } });
      const trace = await readNow(api, id);
      expect(trace.spans.map((s) => s.id)).toEqual(['s1', 's2', 's3', 's4', 's5']);
      expect(trace.spans[0].output).toBeNull();
      expect(trace.dropped!.spanIds).toEqual(['s6', 's7', 's1']);
    });

    it('records what a plain 202 lost, and a batch with Prefer: wait tells each item', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = aTrace().id;
      await ingest(api, { id, tags: tagRange(0, 50) });
      await ingest(api, { id, tags: ['one-too-many'] });
      const trace = await readEventually(api, id, (t) => t.dropped !== null);
      expect(trace.dropped).toEqual({ tags: ['one-too-many'], metadataKeys: [], spanIds: [] });
      expect(trace.tags).toHaveLength(50);

      const batch = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces: [{ id, tags: ['again'] }, aTrace()] }, { headers: WAIT });
      expect(batch.status).toBe(207);
      expect(batch.body.items[0]).toEqual({ index: 0, id, result: 'accepted', dropped: { tags: ['again'], metadataKeys: [], spanIds: [] } });
      expect(batch.body.items[1]).not.toHaveProperty('dropped');
    });
  });
});
