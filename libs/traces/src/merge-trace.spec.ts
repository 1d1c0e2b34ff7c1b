import type { TraceInput } from '@cinetrace/contracts';
import { MergeResult, mergeTrace, TraceState } from './merge-trace';
import { DEFAULT_TRACE_LIMITS, TraceLimits } from './trace-limits';
import type { StoredSpan } from './stored-trace';
import { toTimeline } from './span-timeline';

const T0 = 1_763_800_000_000;
const span = (id: string, over: Record<string, unknown> = {}) => ({ id, name: id, startTime: T0, ...over });

/** Applies inputs in order as the store would: the state keeps every span. */
function applyAll(inputs: TraceInput[], limits: TraceLimits = DEFAULT_TRACE_LIMITS) {
  let state: TraceState | undefined;
  let last;
  const dropped: Array<MergeResult['dropped']> = [];
  for (const [i, input] of inputs.entries()) {
    last = mergeTrace('prj_1', state, input, T0 + 1000 * (i + 1), limits);
    dropped.push(last.dropped);
    const spans = new Map(state?.spans ?? []);
    for (const s of last.changedSpans) spans.set(s.id, s);
    state = { trace: last.trace, spans };
  }
  return { ...last!, spans: state!.spans, droppedEach: dropped };
}

describe('mergeTrace', () => {
  it('creates a trace whose start is its earliest span and whose sums cover every span', () => {
    const { trace } = applyAll([
      {
        id: 't',
        spans: [
          span('a', { startTime: T0 + 50, usage: { inputTokens: 10 }, costUsd: 0.1 }),
          span('b', { startTime: T0 + 20, usage: { inputTokens: 5, videoSeconds: 4 }, costUsd: 0.2, status: 'error' }),
        ],
      },
    ]);
    expect(trace).toMatchObject({ startTime: T0 + 20, status: 'running', spanCount: 2, errorCount: 1, costUsd: 0.3 });
    expect(trace.usage).toEqual({ inputTokens: 15, videoSeconds: 4 });
  });

  it('replaces present fields, merges metadata by key, unites tags and upserts spans', () => {
    const { trace, spans } = applyAll([
      { id: 't', name: 'first', metadata: { a: 1, b: 1 }, tags: ['x'], spans: [span('a', { costUsd: 1 })] },
      { id: 't', name: 'second', endTime: T0 + 500, metadata: { b: 2, c: 3 }, tags: ['y', 'x'], spans: [span('a', { status: 'error', costUsd: 2 }), span('b')] },
    ]);
    expect(trace).toMatchObject({ name: 'second', metadata: { a: 1, b: 2, c: 3 }, tags: ['x', 'y'], status: 'ok', spanCount: 2, errorCount: 1, costUsd: 2 });
    expect(spans.get('a')).toMatchObject({ name: 'a', status: 'error', costUsd: 2 });
  });

  it('changes nothing, updatedAt included, when the same input arrives again', () => {
    const input: TraceInput = { id: 't', tags: ['x'], metadata: { k: 'v' }, spans: [span('a', { usage: { images: 1 } })] };
    const first = applyAll([input]);
    const again = mergeTrace('prj_1', { trace: first.trace, spans: first.spans }, input, T0 + 60_000);
    expect(again.changed).toBe(false);
    expect(again.changedSpans).toEqual([]);
    expect(again.trace).toEqual(first.trace);
  });

  it('keeps an explicit status and start over derived ones', () => {
    const { trace } = applyAll([
      { id: 't', status: 'error', startTime: T0 - 5, spans: [span('a', { startTime: T0 - 100 })] },
      { id: 't', endTime: T0 + 1, spans: [] },
    ]);
    expect(trace).toMatchObject({ status: 'error', startTime: T0 - 5 });
  });

  it('sets costUsd back to null when no span carries a cost any more', () => {
    const { trace } = applyAll([
      { id: 't', spans: [span('a', { costUsd: 0.5 })] },
      { id: 't', spans: [span('a', { costUsd: null })] },
    ]);
    expect(trace.costUsd).toBeNull();
  });
});

describe('mergeTrace, any key name', () => {
  it('sums usage keys named like Object.prototype members, __proto__ included', () => {
    const usage = JSON.parse('{"toString":2,"valueOf":3,"hasOwnProperty":4,"constructor":5,"__proto__":6}') as Record<string, number>;
    const { trace } = applyAll([{ id: 't', spans: [span('a', { usage }), span('b', { usage })] }]);
    expect(JSON.parse(JSON.stringify(trace.usage))).toEqual(JSON.parse('{"toString":4,"valueOf":6,"hasOwnProperty":8,"constructor":10,"__proto__":12}'));
  });

  it('merges a metadata key named __proto__ as data, not as a prototype', () => {
    const { trace } = applyAll([
      { id: 't', metadata: { a: 1 }, spans: [] },
      { id: 't', metadata: JSON.parse('{"__proto__":{"polluted":true},"toString":"x"}') as Record<string, unknown>, spans: [] },
    ]);
    expect(JSON.stringify(trace.metadata)).toBe('{"a":1,"__proto__":{"polluted":true},"toString":"x"}');
    expect(Object.getPrototypeOf(trace.metadata)).toBe(Object.prototype);
  });
});

describe('mergeTrace, limits on the merged trace', () => {
  const tags = (from: number, n: number) => Array.from({ length: n }, (_, i) => `tag-${from + i}`);

  it('keeps the first 50 tags over three POSTs and records the rest as dropped', () => {
    const { trace, droppedEach } = applyAll([
      { id: 't', tags: tags(0, 50), spans: [] },
      { id: 't', tags: tags(50, 50), spans: [] },
      { id: 't', tags: [...tags(0, 10), ...tags(100, 50)], spans: [] },
    ]);
    expect(trace.tags).toEqual(tags(0, 50));
    expect(droppedEach[0]).toBeNull();
    expect(droppedEach[1]).toEqual({ tags: tags(50, 50), metadataKeys: [], spanIds: [] });
    // The trace's record lists at most 100 names per list.
    expect(trace.dropped!.tags).toEqual([...tags(50, 50), ...tags(100, 50)]);
  });

  it('sets metadata keys while the merged object fits 64 KiB, leaves out the key that would not, and keeps what was stored', () => {
    const blob = (kb: number) => 'x'.repeat(kb * 1024);
    const { trace, droppedEach } = applyAll([
      { id: 't', metadata: { a: blob(40) }, spans: [] },
      { id: 't', metadata: { b: blob(40), c: 'small' }, spans: [] },
      { id: 't', metadata: { a: 'shrunk' }, spans: [] },
      { id: 't', metadata: { b: blob(40) }, spans: [] },
    ]);
    expect(droppedEach.map((d) => d?.metadataKeys ?? [])).toEqual([[], ['b'], [], []]);
    expect(Object.keys(trace.metadata)).toEqual(['a', 'c', 'b']);
    expect(trace.metadata.a).toBe('shrunk');
    expect(Buffer.byteLength(JSON.stringify(trace.metadata))).toBeLessThanOrEqual(64 * 1024);
    expect(trace.dropped).toEqual({ tags: [], metadataKeys: ['b'], spanIds: [] });
  });

  it('fills metadata to exactly its limit, byte for byte', () => {
    const limits = { ...DEFAULT_TRACE_LIMITS, metadataMaxBytes: 30 };
    // {"a":"xxxxxxxxxxxx","b":"yy"} is 30 bytes; one byte more is refused.
    const { trace, droppedEach } = applyAll(
      [
        { id: 't', metadata: { a: 'x'.repeat(12) }, spans: [] },
        { id: 't', metadata: { b: 'yy', c: 1 }, spans: [] },
      ],
      limits,
    );
    expect(JSON.stringify(trace.metadata)).toBe('{"a":"xxxxxxxxxxxx","b":"yy"}');
    expect(droppedEach[1]!.metadataKeys).toEqual(['c']);
  });

  it('stores no span past the span count or the span bytes, takes updates that fit, and records what it left out', () => {
    const limits = { ...DEFAULT_TRACE_LIMITS, maxSpans: 3, maxSpanBytes: 1000 };
    const { trace, spans, droppedEach } = applyAll(
      [
        { id: 't', spans: [span('a'), span('b')] },
        { id: 't', spans: [span('c'), span('d'), span('a', { status: 'ok' })] },
        { id: 't', spans: [span('b', { input: 'x'.repeat(800) })] },
        { id: 't', spans: [span('c', { input: 'x'.repeat(200) })] },
      ],
      limits,
    );
    expect([...spans.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(droppedEach.map((d) => d?.spanIds ?? [])).toEqual([[], ['d'], ['b'], []]);
    expect(spans.get('a')!.status).toBe('ok');
    expect(spans.get('c')!.input).toBe('x'.repeat(200));
    expect(trace.spanCount).toBe(3);
    expect(trace.spanBytes).toBe([...spans.values()].reduce((sum, s) => sum + Buffer.byteLength(JSON.stringify(s)), 0));
    expect(trace.dropped!.spanIds).toEqual(['d', 'b']);
  });

  it('drops the same parts again when an input is delivered twice, and changes nothing', () => {
    const limits = { ...DEFAULT_TRACE_LIMITS, maxTags: 1 };
    const input: TraceInput = { id: 't', tags: ['a', 'b'], spans: [] };
    const first = applyAll([input], limits);
    const again = mergeTrace('prj_1', { trace: first.trace, spans: first.spans }, input, T0 + 60_000, limits);
    expect(again.dropped).toEqual({ tags: ['b'], metadataKeys: [], spanIds: [] });
    expect(again.changed).toBe(false);
    expect(again.trace).toEqual(first.trace);
  });
});

describe('toTimeline', () => {
  const stored = (id: string, parentId: string | null, startTime: number): StoredSpan => ({
    id,
    parentId,
    name: id,
    kind: 'span',
    status: 'ok',
    statusMessage: null,
    startTime,
    endTime: null,
    model: null,
    input: null,
    output: null,
    usage: null,
    costUsd: null,
    costSource: null,
    attributes: null,
    events: null,
  });

  it('orders spans by start then id, with depth and duration', () => {
    const { spans } = applyAll([
      {
        id: 't',
        spans: [
          span('child', { parentId: 'root', startTime: T0 + 10, endTime: T0 + 30 }),
          span('root', { startTime: T0, endTime: T0 + 100 }),
          span('grandchild', { parentId: 'child', startTime: T0 + 10 }),
        ],
      },
    ]);
    expect(toTimeline([...spans.values()]).map((s) => [s.span.id, s.depth, s.durationMs])).toEqual([
      ['root', 0, 100],
      ['child', 1, 20],
      ['grandchild', 2, null],
    ]);
  });

  it('gives every span of a long chain its depth, whatever order the spans come in', () => {
    const chain = Array.from({ length: 300 }, (_, i) => stored(`s${i}`, i ? `s${i - 1}` : null, T0 + ((i * 7919) % 300)));
    const depths = new Map(toTimeline(chain).map((s) => [s.span.id, s.depth]));
    expect(chain.every((s, i) => depths.get(s.id) === i)).toBe(true);
  });

  it('counts a span whose parent is not stored as a root, and ends a cycle instead of looping', () => {
    const timeline = toTimeline([stored('orphan', 'missing', T0), stored('a', 'b', T0 + 1), stored('b', 'a', T0 + 2)]);
    expect(timeline.map((s) => [s.span.id, s.depth])).toEqual([
      ['orphan', 0],
      ['a', 1],
      ['b', 0],
    ]);
  });
});
