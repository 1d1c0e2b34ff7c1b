import { expect } from '@jest/globals';
import { ApiResponse, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import {
  BATCH,
  T0,
  TRACES,
  TRACE_TEST_TIMEOUT_MS,
  WAIT,
  aSpan,
  aTrace,
  anId,
  at,
  errorPaths,
  expectedSpan,
  getTrace,
  ingest,
  listIds,
  readEventually,
  readNow,
} from './support/traces';
import { Answer } from './support/api-types';

/** A 400 validation_failed whose errors name each of `paths` (a RegExp when the exact index may vary). */
function expectInvalid(response: ApiResponse, ...paths: Array<string | RegExp>): void {
  expectProblem(response, 400, 'validation_failed');
  const named = errorPaths(response);
  for (const path of paths) {
    const hit = named.some((p) => (typeof path === 'string' ? p === path : path.test(p)));
    if (!hit) throw new Error(`expected an error naming ${String(path)}, got paths ${JSON.stringify(named)}`);
  }
}

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

describe('Traces', () => {
  const ctx = useStack();

  describe('ingest', () => {
    it('answers 202 with { id, status, spanCount } and a Location, then the trace becomes readable', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace();
      const response = await api.post<Answer<'ingestTrace', 201>>(TRACES, trace);
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ id: trace.id, status: 'running', spanCount: 3 });
      expect(response.headers.get('location')).toBe(`${TRACES}/${trace.id}`);
      expect(response.headers.get('preference-applied')).toBeNull();
      const stored = await readEventually(api, trace.id, (t) => t.spanCount === 3);
      expect(stored.spans.map((s) => s.id)).toEqual(trace.spans.map((s) => s.id));
    });

    it('describes the payload in the 202: status ok when it has an endTime, else the status sent', async () => {
      const { api } = await inNewProject(ctx.api);
      const closed = aTrace({ endTime: at(1000) });
      expect(await ingest(api, closed)).toEqual({ id: closed.id, status: 'ok', spanCount: 3 });
      const failed = aTrace({ status: 'error', spans: [aSpan()] });
      expect(await ingest(api, failed)).toEqual({ id: failed.id, status: 'error', spanCount: 1 });
      const empty = aTrace({ spans: [] });
      expect(await ingest(api, empty)).toEqual({ id: empty.id, status: 'running', spanCount: 0 });
    });

    it('with Prefer: wait answers 201 with the stored trace, readable at once', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace();
      const first = await api.post<Answer<'ingestTrace', 201>>(TRACES, trace, { headers: WAIT });
      expect(first.status).toBe(201);
      expect(first.headers.get('preference-applied')).toBe('wait');
      expect(first.headers.get('location')).toBe(`${TRACES}/${trace.id}`);
      expect(first.body).toEqual({ id: trace.id, status: 'running', spanCount: 3 });
      expect(await readNow(api, trace.id)).toMatchObject({ id: trace.id, spanCount: 3 });

      // One new span onto the stored three: the 201 counts the stored trace, not the payload.
      const more = { id: trace.id, spans: [aSpan({ parentId: `${trace.id}.root`, startTime: at(850) })] };
      const second = await api.post<Answer<'ingestTrace', 201>>(TRACES, more, { headers: WAIT });
      expect(second.status).toBe(201);
      expect(second.body).toEqual({ id: trace.id, status: 'running', spanCount: 4 });
      const stored = await readNow(api, trace.id);
      expect(stored.spanCount).toBe(4);
      expect(stored.spans.map((s) => s.id)).toContain(more.spans[0].id);
    });

    it('generates time-sortable tr_ and sp_ ids when the client sends none', async () => {
      const { api } = await inNewProject(ctx.api);
      const body = {
        name: unique('anonymous'),
        spans: [
          { name: 'one', startTime: at(0) },
          { name: 'two', startTime: at(5) },
        ],
      };
      const first = await api.post<Answer<'ingestTrace', 201>>(TRACES, body, { headers: WAIT });
      expect(first.status).toBe(201);
      expect(first.body.id).toMatch(/^tr_[A-Za-z0-9._:-]+$/);
      expect(first.headers.get('location')).toBe(`${TRACES}/${first.body.id}`);
      const stored = await readNow(api, first.body.id);
      expect(stored.spans).toHaveLength(2);
      for (const span of stored.spans) expect(span.id).toMatch(/^sp_[A-Za-z0-9._:-]+$/);
      expect(stored.spans[0].id).not.toBe(stored.spans[1].id);

      const second = await ingest(api, body, { wait: true });
      expect(second.id).toMatch(/^tr_/);
      expect(second.id > first.body.id).toBe(true);
      expect(await listIds(api)).toHaveLength(2);
    });

    it('accepts and serves a trace id of 128 characters, an OpenTelemetry 32-hex id and one with every allowed sign', async () => {
      const { api } = await inNewProject(ctx.api);
      const longest = 'A'.repeat(60) + '.b_c-d' + '9'.repeat(62);
      expect(longest).toHaveLength(128);
      for (const id of [longest, '4bf92f3577b34da6a3ce929d0e0e4736', 'run:42.step_1-a']) {
        expect(await ingest(api, aTrace({ id, spans: [aSpan()] }), { wait: true })).toMatchObject({ id });
        expect((await readNow(api, id)).id).toBe(id);
      }
    });

    it('answers 401 project_key_required without X-Project-Key, and stores nothing', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace();
      expectProblem(await ctx.api.post(TRACES, trace), 401, 'project_key_required');
      expectProblem(await ctx.api.post(BATCH, { traces: [trace] }), 401, 'project_key_required');
      expectProblem(await ctx.api.get(TRACES), 401, 'project_key_required');
      expectProblem(await ctx.api.get(`${TRACES}/${trace.id}`), 401, 'project_key_required');
      expect(await listIds(api)).toEqual([]);
    });

    it('replays an ingest sent again with the same Idempotency-Key', async () => {
      const { api } = await inNewProject(ctx.api);
      const keyed = api.withIdempotencyKey(unique('trace-idem'));
      const trace = aTrace();
      const first = await keyed.post(TRACES, trace);
      const again = await keyed.post(TRACES, trace);
      expect(first.status).toBe(202);
      expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expectProblem(await keyed.post(TRACES, aTrace()), 422, 'idempotency_key_reused');
    });
  });

  describe('GET /api/v1/traces/{id}', () => {
    it('shows the summary, input, output and the spans ordered by start then id, with depth and durationMs', async () => {
      const { api, projectId } = await inNewProject(ctx.api);
      const id = anId('tr');
      const plan = { id: 'plan', name: 'plan', kind: 'agent', status: 'ok', startTime: at(0), endTime: at(5000) };
      const render = {
        id: 'render',
        parentId: 'plan',
        name: 'render',
        kind: 'generation',
        status: 'ok',
        startTime: at(1000),
        endTime: at(3000),
        model: 'veo-3',
        input: { prompt: 'a fox at dawn', seconds: 8 },
        output: { url: 'https://cdn.example/fox.mp4' },
        usage: { inputTokens: 120, videoSeconds: 8 },
        costUsd: 0.5,
        attributes: { region: 'eu', retries: 0 },
        events: [
          { name: 'first-frame', time: at(1500), attributes: { frame: 1 } },
          { name: 'done', time: at(2999), attributes: { frames: 192 } },
        ],
      };
      const upscale = {
        id: 'upscale',
        parentId: 'render',
        name: 'upscale',
        kind: 'tool',
        status: 'error',
        statusMessage: 'GPU out of memory',
        startTime: at(3000),
        endTime: at(3500),
      };
      const captionB = { id: 'caption-b', parentId: 'plan', name: 'caption', kind: 'llm', startTime: at(1000), usage: { inputTokens: 30, outputTokens: 12 }, costUsd: 0.125 };
      const captionA = { id: 'caption-a', parentId: 'plan', name: 'caption', kind: 'llm', status: 'error', startTime: at(1000), endTime: at(1250) };
      const minimal = { id: 'note', name: 'note', startTime: at(4000) };
      const trace = {
        id,
        name: 'Teaser render',
        status: 'error',
        startTime: at(0),
        endTime: at(5000),
        input: { brief: 'a fox in a field', style: ['warm', 'grainy'] },
        output: { videos: 1 },
        metadata: { camera: 'dolly', fps: 24, nested: { a: [1, 2] } },
        tags: ['teaser', 'fox'],
        userId: 'user-7',
        sessionId: 'session-3',
        // Sent out of order: the answer orders them.
        spans: [upscale, minimal, render, plan, captionB, captionA],
      };
      expect(await ingest(api, trace, { wait: true })).toEqual({ id, status: 'error', spanCount: 6 });

      const response = await getTrace(api, id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(response.body).toEqual({
        id,
        projectId,
        name: 'Teaser render',
        status: 'error',
        startTime: at(0),
        endTime: at(5000),
        durationMs: 5000,
        spanCount: 6,
        errorCount: 2,
        tags: ['teaser', 'fox'],
        metadata: trace.metadata,
        userId: 'user-7',
        sessionId: 'session-3',
        usage: { inputTokens: 120 + 30, outputTokens: 12, videoSeconds: 8 },
        costUsd: 0.5 + 0.125,
        dropped: null,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        updatedAt: expect.stringMatching(ISO_MILLIS_UTC),
        scores: [],
        input: trace.input,
        output: trace.output,
        spans: [expectedSpan(plan, 0), expectedSpan(captionA, 1), expectedSpan(captionB, 1), expectedSpan(render, 1), expectedSpan(upscale, 2), expectedSpan(minimal, 0)],
      });
      // The span nobody described beyond name and start: defaults and nulls.
      expect(response.body.spans[5]).toMatchObject({ kind: 'span', status: 'unset', parentId: null, endTime: null, durationMs: null, usage: null, events: null });
    });

    it('fills defaults for a trace sent with nothing: received time as start, nulls, empty tags, metadata and usage', async () => {
      const { api, projectId } = await inNewProject(ctx.api);
      const before = Date.now();
      const { id } = await ingest(api, {}, { wait: true });
      const after = Date.now();
      const stored = await readNow(api, id);
      expect(stored).toEqual({
        id,
        projectId,
        name: null,
        status: 'running',
        startTime: expect.stringMatching(ISO_MILLIS_UTC),
        endTime: null,
        durationMs: null,
        spanCount: 0,
        errorCount: 0,
        tags: [],
        metadata: {},
        userId: null,
        sessionId: null,
        usage: {},
        costUsd: null,
        dropped: null,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        updatedAt: expect.stringMatching(ISO_MILLIS_UTC),
        scores: [],
        input: null,
        output: null,
        spans: [],
      });
      expect(Date.parse(stored.startTime)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(stored.startTime)).toBeLessThanOrEqual(after);
    });

    it('takes the earliest span start as the trace start when the trace has none', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace({ startTime: undefined, spans: [aSpan({ startTime: at(700) }), aSpan({ startTime: at(200) }), aSpan({ startTime: at(450) })] });
      await ingest(api, trace, { wait: true });
      expect((await readNow(api, trace.id)).startTime).toBe(at(200));
    });

    it('accepts times as epoch milliseconds or ISO with any zone, and writes them back as ISO UTC with ms', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = {
        id: anId('tr'),
        startTime: T0,
        endTime: T0 + 2500,
        spans: [
          // 12:00:00.250+02:00 is 10:00:00.250Z, T0 + 250.
          { id: 'zoned', name: 'zoned', startTime: '2026-03-01T12:00:00.250+02:00', endTime: T0 + 750, events: [{ name: 'tick', time: T0 + 500, attributes: {} }] },
          { id: 'seconds', name: 'seconds', startTime: '2026-03-01T10:00:01Z', endTime: '2026-03-01T10:00:02.000Z' },
        ],
      };
      await ingest(api, trace, { wait: true });
      const stored = await readNow(api, trace.id);
      expect(stored).toMatchObject({ startTime: at(0), endTime: at(2500), durationMs: 2500, status: 'ok' });
      expect(stored.spans).toEqual([
        expect.objectContaining({ id: 'zoned', startTime: at(250), endTime: at(750), durationMs: 500, events: [{ name: 'tick', time: at(500), attributes: {} }] }),
        expect.objectContaining({ id: 'seconds', startTime: at(1000), endTime: at(2000), durationMs: 1000 }),
      ]);
      for (const time of [stored.startTime, stored.endTime, stored.createdAt, stored.updatedAt, ...stored.spans.map((s) => s.startTime)]) {
        expect(time).toMatch(ISO_MILLIS_UTC);
      }
    });

    it('answers 404 not_found for an id the project never sent', async () => {
      const { api } = await inNewProject(ctx.api);
      const known = aTrace();
      await ingest(api, known, { wait: true });
      expect((await getTrace(api, known.id)).status).toBe(200);
      expectProblem(await getTrace(api, `${known.id}x`), 404, 'not_found');
      expectProblem(await getTrace(api, known.id.toUpperCase()), 404, 'not_found');
    });
  });

  describe('validation', () => {
    const threeSpans = () => [aSpan({ id: 's0' }), aSpan({ id: 's1' }), aSpan({ id: 's2' })];
    const cases: Array<[string, string | RegExp, (t: Record<string, unknown>) => void]> = [
      ['a bad span start', 'spans[2].startTime', (t) => (t.spans = threeSpans().map((s, i) => (i === 2 ? { ...s, startTime: 'yesterday' } : s)))],
      ['a missing span start', 'spans[1].startTime', (t) => (t.spans = [aSpan(), { id: 'x', name: 'no start' }])],
      ['a missing span name', 'spans[0].name', (t) => (t.spans = [{ id: 'x', startTime: at(0) }])],
      ['a start without a zone', 'startTime', (t) => (t.startTime = '2026-03-01T10:00:00')],
      ['a negative epoch', 'startTime', (t) => (t.startTime = -1)],
      // A fraction of a millisecond is taken (kept to the microsecond); a string of digits is not a time.
      ['an epoch as a string', 'startTime', (t) => (t.startTime = String(T0))],
      ['an unknown field', 'colour', (t) => (t.colour = 'red')],
      ['an unknown span field', 'spans[0].colour', (t) => (t.spans = [aSpan({ colour: 'red' })])],
      ['a bad status', 'status', (t) => (t.status = 'done')],
      ['a bad span kind', 'spans[0].kind', (t) => (t.spans = [aSpan({ kind: 'video' })])],
      ['a bad span status', 'spans[0].status', (t) => (t.spans = [aSpan({ status: 'running' })])],
      ['an end before the start', 'endTime', (t) => ((t.startTime = at(1000)), (t.endTime = at(999)))],
      ['a span end before its start', 'spans[1].endTime', (t) => (t.spans = [aSpan(), aSpan({ startTime: at(1000), endTime: T0 + 999 })])],
      ['a parent naming nothing', 'spans[1].parentId', (t) => (t.spans = [aSpan({ id: 'p' }), aSpan({ id: 'c', parentId: 'nobody' })])],
      ['a self-parent', 'spans[0].parentId', (t) => (t.spans = [aSpan({ id: 'me', parentId: 'me' })])],
      ['a cycle', /^spans\[[012]\]\.parentId$/, (t) => (t.spans = [aSpan({ id: 'a', parentId: 'c' }), aSpan({ id: 'b', parentId: 'a' }), aSpan({ id: 'c', parentId: 'b' })])],
      ['a repeated span id', 'spans[2].id', (t) => (t.spans = [aSpan({ id: 'twin' }), aSpan({ id: 'other' }), aSpan({ id: 'twin' })])],
      ['oversized metadata', 'metadata', (t) => (t.metadata = { blob: 'x'.repeat(70_000) })],
      ['oversized span attributes', 'spans[0].attributes', (t) => (t.spans = [aSpan({ attributes: { blob: 'x'.repeat(70_000) } })])],
      ['metadata that is not an object', 'metadata', (t) => (t.metadata = ['a'])],
      ['a negative usage value', /^spans\[0\]\.usage/, (t) => (t.spans = [aSpan({ usage: { inputTokens: -1 } })])],
      ['a bad event time', 'spans[0].events[0].time', (t) => (t.spans = [aSpan({ events: [{ name: 'e', time: 'later' }] })])],
      ['more than 1000 spans', 'spans', (t) => (t.spans = Array.from({ length: 1001 }, (_, i) => ({ id: `s${i}`, name: 'n', startTime: T0 + i })))],
      ['more than 50 tags', 'tags', (t) => (t.tags = Array.from({ length: 51 }, (_, i) => `tag-${i}`))],
      ['an empty tag', /^tags/, (t) => (t.tags = ['ok', ''])],
    ];

    it.each(cases)('refuses %s: 400 naming %s, and stores nothing', async (_label, path, spoil) => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace();
      spoil(trace);
      expectInvalid(await api.post(TRACES, trace, { headers: WAIT }), path);
      expectInvalid(await api.post(TRACES, trace), path);
      expectProblem(await getTrace(api, trace.id), 404, 'not_found');
      expect(await listIds(api)).toEqual([]);
    });

    it.each([
      ['with a space', 'tr 1'],
      ['with a slash', 'tr/1'],
      ['with a non-ASCII letter', 'trâce'],
      ['empty', ''],
      ['of 129 characters', 'a'.repeat(129)],
      ['not a string', 42],
    ])('refuses a trace id %s: 400 naming id', async (_label, id) => {
      const { api } = await inNewProject(ctx.api);
      expectInvalid(await api.post(TRACES, aTrace({ id })), 'id');
    });

    it.each([
      ['with a space', 'sp 1'],
      ['of 129 characters', 'b'.repeat(129)],
    ])('refuses a span id %s: 400 naming spans[0].id', async (_label, id) => {
      const { api } = await inNewProject(ctx.api);
      expectInvalid(await api.post(TRACES, aTrace({ spans: [aSpan({ id })] })), 'spans[0].id');
    });

    it('names every offending field at once', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace({ status: 'done', colour: 'red', spans: [aSpan({ kind: 'video' }), aSpan({ startTime: 'soon' })] });
      expectInvalid(await api.post(TRACES, trace), 'status', 'colour', 'spans[0].kind', 'spans[1].startTime');
    });

    it('refuses a body that is not a trace object', async () => {
      const { api } = await inNewProject(ctx.api);
      expectProblem(await api.post(TRACES, [aTrace()]), 400, 'validation_failed');
      expectProblem(await api.post(TRACES, 'a trace'), 400, 'validation_failed');
      expectProblem(await api.post(TRACES, undefined, { raw: '{"id":', contentType: 'application/json' }), 400, 'invalid_json');
    });
  });

  describe('parent links across POSTs', () => {
    it('accepts a parentId naming a span stored by an earlier POST of the trace', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = anId('tr');
      await ingest(api, { id, spans: [aSpan({ id: 'root', startTime: at(0) })] }, { wait: true });
      const child = aSpan({ id: 'child', parentId: 'root', startTime: at(10) });
      await ingest(api, { id, spans: [child] }, { wait: true });
      const grandchild = aSpan({ id: 'grandchild', parentId: 'child', startTime: at(20) });
      await ingest(api, { id, spans: [grandchild] });
      const stored = await readEventually(api, id, (t) => t.spanCount === 3);
      expect(stored.spans.map((s) => [s.id, s.parentId, s.depth])).toEqual([
        ['root', null, 0],
        ['child', 'root', 1],
        ['grandchild', 'child', 2],
      ]);
    });

    it('refuses a parentId naming a span of another trace, and a cycle through stored spans', async () => {
      const { api } = await inNewProject(ctx.api);
      const elsewhere = aTrace();
      await ingest(api, elsewhere, { wait: true });
      const id = anId('tr');
      expectInvalid(await api.post(TRACES, { id, spans: [aSpan({ parentId: `${elsewhere.id}.root` })] }), 'spans[0].parentId');
      expectProblem(await getTrace(api, id), 404, 'not_found');

      // root <- a already stored: making root a child of a closes a loop.
      expectInvalid(await api.post(TRACES, { id: elsewhere.id, spans: [{ ...elsewhere.spans[0], parentId: `${elsewhere.id}.a` }] }), 'spans[0].parentId');
      expect((await readNow(api, elsewhere.id)).spans[0]).toMatchObject({ id: `${elsewhere.id}.root`, parentId: null, depth: 0 });
    });
  });

  describe('merge', () => {
    it('replaces present fields, merges metadata by key, unites tags and upserts spans by id', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = anId('tr');
      const load = { id: 'load', name: 'load', kind: 'retrieval', startTime: at(0), model: 'loader-1', attributes: { source: 's3' } };
      const plan = { id: 'plan', name: 'plan', startTime: at(50), endTime: at(80), usage: { inputTokens: 10 }, costUsd: 0.25 };
      await ingest(
        api,
        { id, name: 'first', userId: 'user-1', sessionId: 'session-1', input: { take: 1 }, metadata: { a: 1, b: 2 }, tags: ['x', 'y'], startTime: at(0), spans: [load, plan] },
        { wait: true },
      );
      const before = await readNow(api, id);
      expect(before).toMatchObject({ status: 'running', spanCount: 2 });

      const loadDone = { id: 'load', name: 'load', startTime: at(0), endTime: at(40), status: 'ok', output: { rows: 3 } };
      const render = { id: 'render', parentId: 'plan', name: 'render', startTime: at(100), endTime: at(900), usage: { inputTokens: 5, videoSeconds: 4 }, costUsd: 0.5 };
      await sleep(5);
      const second = await ingest(
        api,
        { id, name: 'second', status: 'ok', endTime: at(1000), output: { done: true }, metadata: { b: 3, c: 4 }, tags: ['y', 'z'], spans: [loadDone, render] },
        { wait: true },
      );
      expect(second).toEqual({ id, status: 'ok', spanCount: 3 });

      const after = await readNow(api, id);
      expect(after).toMatchObject({
        name: 'second',
        status: 'ok',
        startTime: at(0),
        endTime: at(1000),
        durationMs: 1000,
        userId: 'user-1',
        sessionId: 'session-1',
        input: { take: 1 },
        output: { done: true },
        metadata: { a: 1, b: 3, c: 4 },
        tags: ['x', 'y', 'z'],
        spanCount: 3,
        // plan's own 10 tokens and its cost are not counted again: its child render carries both (usage counted once).
        usage: { inputTokens: 5, videoSeconds: 4 },
        costUsd: 0.5,
        createdAt: before.createdAt,
      });
      expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
      expect(after.spans).toEqual([
        // Present span fields replaced, absent ones kept.
        expectedSpan({ ...load, ...loadDone }, 0),
        expectedSpan(plan, 0),
        expectedSpan(render, 1),
      ]);
    });

    it('stores the same trace when the same payload is sent twice, updatedAt included', async () => {
      const { api } = await inNewProject(ctx.api);
      const trace = aTrace({ metadata: { scene: 4 }, tags: ['a', 'b'], userId: 'u', endTime: at(1000) });
      const first = await ingest(api, trace, { wait: true });
      const stored = await readNow(api, trace.id);
      await sleep(20);
      expect(await ingest(api, trace, { wait: true })).toEqual(first);
      expect(await readNow(api, trace.id)).toEqual(stored);
      // Also when it arrives without Prefer: wait.
      await ingest(api, trace);
      await sleep(500);
      expect(await readNow(api, trace.id)).toEqual(stored);
      expect(await listIds(api)).toEqual([trace.id]);
    });

    it('keeps the same id in two projects as two traces', async () => {
      const a = await inNewProject(ctx.api);
      const b = await inNewProject(ctx.api);
      const id = anId('shared');
      await ingest(a.api, aTrace({ id, name: 'in a', tags: ['a'] }), { wait: true });
      await ingest(b.api, aTrace({ id, name: 'in b', spans: [aSpan()] }), { wait: true });
      expect(await readNow(a.api, id)).toMatchObject({ projectId: a.projectId, name: 'in a', tags: ['a'], spanCount: 3 });
      expect(await readNow(b.api, id)).toMatchObject({ projectId: b.projectId, name: 'in b', tags: [], spanCount: 1 });
    });

    it("answers 404 for another project's trace and never shows it", async () => {
      const owner = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const trace = aTrace({ userId: 'owner-user' });
      await ingest(owner.api, trace, { wait: true });
      const response = await getTrace(other.api, trace.id);
      expectProblem(response, 404, 'not_found');
      expect(response.text).not.toContain('owner-user');
      expect(await listIds(other.api)).toEqual([]);
      expect(await listIds(other.api, { userId: 'owner-user' })).toEqual([]);
      expect((await readNow(owner.api, trace.id)).id).toBe(trace.id);
    });
  });

  describe('batch', () => {
    it('answers 207 with one result per item: valid items stored, invalid ones rejected with prefixed paths', async () => {
      const { api } = await inNewProject(ctx.api);
      const good = aTrace();
      const badTime = aTrace({ spans: [aSpan({ startTime: 'soon' })] });
      const numericId = { id: 42, name: 'numbered' };
      const anonymous = { name: unique('anonymous'), spans: [aSpan()] };
      const response = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces: [good, badTime, numericId, anonymous, 'not a trace'] }, { headers: WAIT });
      expect(response.status).toBe(207);
      expect(response.headers.get('preference-applied')).toBe('wait');
      expect(response.body).toEqual({
        accepted: 2,
        rejected: 3,
        items: [
          { index: 0, id: good.id, result: 'accepted' },
          {
            index: 1,
            id: badTime.id,
            result: 'rejected',
            errors: expect.arrayContaining([expect.objectContaining({ path: 'traces[1].spans[0].startTime', message: expect.any(String) })]),
          },
          { index: 2, id: null, result: 'rejected', errors: expect.arrayContaining([expect.objectContaining({ path: 'traces[2].id' })]) },
          { index: 3, id: expect.stringMatching(/^tr_/), result: 'accepted' },
          { index: 4, id: null, result: 'rejected', errors: [expect.objectContaining({ path: expect.stringMatching(/^traces\[4\]/) })] },
        ],
      });
      expect(await readNow(api, good.id)).toMatchObject({ name: good.name, spanCount: 3 });
      expect(await readNow(api, response.body.items[3].id!)).toMatchObject({ name: anonymous.name, spanCount: 1 });
      expectProblem(await getTrace(api, badTime.id), 404, 'not_found');
      expect(await listIds(api)).toHaveLength(2);
    });

    it("checks an item's parents against its stored trace, each item's result in its place", async () => {
      const { api } = await inNewProject(ctx.api);
      const stored = aTrace();
      await ingest(api, stored, { wait: true });
      const child = { id: stored.id, spans: [aSpan({ parentId: `${stored.id}.root`, startTime: at(850) })] };
      const orphan = aTrace({ spans: [aSpan({ parentId: 'nobody' })] });
      const plain = aTrace();
      const response = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces: [orphan, child, plain] }, { headers: WAIT });
      expect(response.status).toBe(207);
      expect(response.body).toEqual({
        accepted: 2,
        rejected: 1,
        items: [
          { index: 0, id: orphan.id, result: 'rejected', errors: [expect.objectContaining({ path: 'traces[0].spans[0].parentId' })] },
          { index: 1, id: stored.id, result: 'accepted' },
          { index: 2, id: plain.id, result: 'accepted' },
        ],
      });
      expect(await readNow(api, stored.id)).toMatchObject({ spanCount: stored.spans.length + 1 });
      expectProblem(await getTrace(api, orphan.id), 404, 'not_found');
    });

    it('stores accepted items without Prefer: wait too, readable shortly after', async () => {
      const { api } = await inNewProject(ctx.api);
      const traces = [aTrace(), aTrace({ spans: [aSpan()] })];
      const response = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces });
      expect(response.status).toBe(207);
      expect(response.body).toMatchObject({ accepted: 2, rejected: 0 });
      expect(response.headers.get('preference-applied')).toBeNull();
      for (const trace of traces) await readEventually(api, trace.id, (t) => t.spanCount === trace.spans.length);
    });

    it('answers 207 with nothing to do for an empty list', async () => {
      const { api } = await inNewProject(ctx.api);
      const response = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces: [] });
      expect(response.status).toBe(207);
      expect(response.body).toEqual({ accepted: 0, rejected: 0, items: [] });
    });

    it.each([
      ['an array', [{ name: 'x' }]],
      ['an object without traces', { items: [] }],
      ['traces that is not an array', { traces: { name: 'x' } }],
      ['a string', 'traces'],
      ['more than 1000 items', { traces: Array.from({ length: 1001 }, () => ({})) }],
    ])('answers 400 naming traces for %s', async (_label, body) => {
      const { api } = await inNewProject(ctx.api);
      expectInvalid(await api.post(BATCH, body), 'traces');
      expect(await listIds(api)).toEqual([]);
    });
  });

  describe('reads after a 202', () => {
    it('shows a trace accepted without Prefer: wait, whole, within seconds', async () => {
      const { api } = await inNewProject(ctx.api);
      const traces = Array.from({ length: 5 }, () => aTrace());
      const started = Date.now();
      for (const trace of traces) await ingest(api, trace);
      for (const trace of traces) {
        const stored = await readEventually(api, trace.id, (t) => t.spanCount === 3);
        expect(stored.spans.map((s) => s.id)).toEqual(trace.spans.map((s) => s.id));
      }
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});
