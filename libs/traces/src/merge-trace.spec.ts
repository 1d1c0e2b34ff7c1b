import type { TraceInput } from '@cinetrace/contracts';
import { mergeTrace, TraceState } from './merge-trace';
import type { StoredSpan } from './stored-trace';
import { toTimeline } from './span-timeline';

const T0 = 1_763_800_000_000;
const span = (id: string, over: Record<string, unknown> = {}) => ({ id, name: id, startTime: T0, ...over });

/** Applies inputs in order as the store would: the state keeps every span. */
function applyAll(inputs: TraceInput[]) {
  let state: TraceState | undefined;
  let last;
  for (const [i, input] of inputs.entries()) {
    last = mergeTrace('prj_1', state, input, T0 + 1000 * (i + 1));
    const spans = new Map(state?.spans ?? []);
    for (const s of last.changedSpans) spans.set(s.id, s);
    state = { trace: last.trace, spans };
  }
  return { ...last!, spans: state!.spans };
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

describe('toTimeline', () => {
  const stored = (id: string, parentId: string | null, startTime: number): StoredSpan => ({
    id, parentId, name: id, kind: 'span', status: 'ok', statusMessage: null, startTime, endTime: null, model: null,
    input: null, output: null, usage: null, costUsd: null, attributes: null, events: null,
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
    const chain = Array.from({ length: 300 }, (_, i) =>
      stored(`s${i}`, i ? `s${i - 1}` : null, T0 + ((i * 7919) % 300)),
    );
    const depths = new Map(toTimeline(chain).map((s) => [s.span.id, s.depth]));
    expect(chain.every((s, i) => depths.get(s.id) === i)).toBe(true);
  });

  it('counts a span whose parent is not stored as a root, and ends a cycle instead of looping', () => {
    const timeline = toTimeline([
      stored('orphan', 'missing', T0),
      stored('a', 'b', T0 + 1),
      stored('b', 'a', T0 + 2),
    ]);
    expect(timeline.map((s) => [s.span.id, s.depth])).toEqual([
      ['orphan', 0],
      ['a', 1],
      ['b', 0],
    ]);
  });
});
