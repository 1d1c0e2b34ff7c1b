import { expect } from '@jest/globals';
import type { SpanInput, TraceInput } from '@cinetrace/contracts';
import { mergeTrace, type MergeResult } from './merge-trace';
import type { StoredSpan, StoredTrace } from './stored-trace';
import { countWholeTrace, emptyUsageTree, type UsageCounts, type UsageTree } from './usage-tree';

const T0 = 1_763_800_000_000;

/**
 * A store as trace-ingest keeps one trace: every span and the whole tree, of which each
 * merge is given what the writer loads (the spans the input names, their stored ancestors,
 * the awaiting entries of those not stored) and nothing else.
 */
class TraceStore {
  trace: StoredTrace | undefined;
  readonly spans = new Map<string, StoredSpan>();
  readonly tree: UsageTree = emptyUsageTree();
  private receivedAt = T0;
  /** What the last merge gave: the rows it would write. */
  last: MergeResult | undefined;

  send(spans: SpanInput[]): StoredTrace {
    const input: TraceInput = { id: 't', spans };
    const loaded = this.trace ? this.load(input) : undefined;
    const result = mergeTrace('prj_1', loaded, input, (this.receivedAt += 1000));
    this.last = result;
    this.trace = result.trace;
    for (const span of result.changedSpans) {
      this.spans.set(span.id, span);
      setOrDelete(this.tree.below, span.id, result.tree.below.get(span.id));
    }
    for (const id of result.changedAwaiting) setOrDelete(this.tree.awaiting, id, result.tree.awaiting.get(id));
    return result.trace;
  }

  private load(input: TraceInput) {
    const spans = new Map<string, StoredSpan>();
    const tree = emptyUsageTree();
    const incomingParents = new Map<string, Array<string | null | undefined>>();
    for (const span of input.spans) incomingParents.set(span.id, [...(incomingParents.get(span.id) ?? []), span.parentId]);
    const seen = new Set<string>();
    const visit = (id: string | null | undefined) => {
      if (!id || seen.has(id)) return;
      seen.add(id);
      const stored = this.spans.get(id);
      if (stored) {
        spans.set(id, stored);
        const below = this.tree.below.get(id);
        if (below) tree.below.set(id, below);
        visit(stored.parentId);
      } else {
        const waiting = this.tree.awaiting.get(id);
        if (waiting) tree.awaiting.set(id, waiting);
      }
      for (const parentId of incomingParents.get(id) ?? []) visit(parentId);
    };
    for (const span of input.spans) visit(span.id);
    return { trace: this.trace!, spans, tree };
  }
}

function setOrDelete(map: Map<string, UsageCounts>, id: string, value: UsageCounts | undefined): void {
  if (value) map.set(id, value);
  else map.delete(id);
}

/** The rule, as written in the API reference, read off the final spans (no incremental state). */
function expectedSums(spans: Iterable<StoredSpan>): { usage: Record<string, number>; costUsd: number | null } {
  const all = [...spans];
  const byId = new Map(all.map((s) => [s.id, s]));
  const ancestorsOf = (span: StoredSpan) => {
    const found: StoredSpan[] = [];
    for (let at = byId.get(span.parentId ?? ''); at && !found.includes(at); at = byId.get(at.parentId ?? '')) found.push(at);
    return found;
  };
  const repeated = new Map<StoredSpan, Set<string>>();
  for (const span of all) {
    for (const ancestor of ancestorsOf(span)) {
      const keys = repeated.get(ancestor) ?? new Set<string>();
      for (const key of Object.keys(span.usage ?? {})) keys.add(key);
      if (span.costUsd !== null) keys.add('$cost');
      repeated.set(ancestor, keys);
    }
  }
  const usage: Record<string, number> = {};
  let costUsd: number | null = null;
  for (const span of all) {
    const skip = repeated.get(span) ?? new Set<string>();
    for (const [key, value] of Object.entries(span.usage ?? {})) {
      usage[key] = (usage[key] ?? 0) + (skip.has(key) ? 0 : value);
    }
    if (span.costUsd !== null) costUsd = (costUsd ?? 0) + (skip.has('$cost') ? 0 : span.costUsd);
  }
  return { usage, costUsd };
}

const span = (id: string, parentId: string | null, over: Partial<SpanInput> = {}): SpanInput => ({ id, parentId, name: id, startTime: T0, ...over });

/** The Vercel AI SDK's shape: `invoke_agent` repeats the usage of its chat spans; the tool call carries none. */
const AGENT = span('agent', null, { usage: { inputTokens: 22, outputTokens: 10 }, costUsd: 0.0022 });
const CHAT_1 = span('chat1', 'agent', { usage: { inputTokens: 11, outputTokens: 5 }, costUsd: 0.0011 });
const TOOL = span('tool', 'agent');
const CHAT_2 = span('chat2', 'agent', { usage: { inputTokens: 11, outputTokens: 5 }, costUsd: 0.0011 });

describe('a trace counts usage and cost once', () => {
  const orders: Array<[string, SpanInput[][]]> = [
    ['in one export, root first', [[AGENT, CHAT_1, TOOL, CHAT_2]]],
    ['in one export, root last', [[CHAT_1, TOOL, CHAT_2, AGENT]]],
    ['children first, root in a later export (OTLP: a parent ends last)', [[CHAT_1], [TOOL, CHAT_2], [AGENT]]],
    ['root first, children in later exports', [[AGENT], [CHAT_1], [TOOL, CHAT_2]]],
    ['the root between its children', [[CHAT_2], [AGENT], [TOOL], [CHAT_1]]],
  ];

  it.each(orders)('an agent over two chat calls reads 22/10 tokens, not 44/20: %s', (_order, exports) => {
    const store = new TraceStore();
    for (const spans of exports) store.send(spans);
    expect(store.trace!.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
    expect(store.trace!.costUsd).toBeCloseTo(0.0022, 9);
    expect(store.trace!.spanCount).toBe(4);
  });

  it('counts a parent again once no descendant carries the key any more (an upsert replacing the usage)', () => {
    const store = new TraceStore();
    store.send([AGENT, CHAT_1, CHAT_2]);
    store.send([{ id: 'chat1', usage: {}, costUsd: null }]);
    expect(store.trace!.usage).toEqual({ inputTokens: 11, outputTokens: 5 });
    store.send([{ id: 'chat2', usage: { images: 1 }, costUsd: null }]);
    // No chat carries tokens now: the agent's own 22/10 count; chat2's image counts.
    expect(store.trace!.usage).toEqual({ inputTokens: 22, outputTokens: 10, images: 1 });
    expect(store.trace!.costUsd).toBeCloseTo(0.0022, 9);
  });

  it('keeps per key what only the parent carries (a total the children do not report)', () => {
    const store = new TraceStore();
    store.send([span('agent', null, { usage: { inputTokens: 22, totalTokens: 32 } }), CHAT_1, CHAT_2]);
    expect(store.trace!.usage).toEqual({ inputTokens: 22, outputTokens: 10, totalTokens: 32 });
  });

  it('does not count a grandparent that repeats its grandchildren through a step without usage', () => {
    const store = new TraceStore();
    store.send([span('chat', 'step', { usage: { inputTokens: 7 } })]);
    store.send([span('agent', null, { usage: { inputTokens: 7 } })]);
    expect(store.trace!.usage).toEqual({ inputTokens: 14 });
    // The step arrives last and links the two: the agent's figure is now a repeat.
    store.send([span('step', 'agent')]);
    expect(store.trace!.usage).toEqual({ inputTokens: 7 });
  });

  it('moves a subtree when a span is sent again under another parent', () => {
    const store = new TraceStore();
    store.send([AGENT, span('other', null, { usage: { inputTokens: 100 } }), CHAT_1, CHAT_2]);
    expect(store.trace!.usage).toEqual({ inputTokens: 122, outputTokens: 10 });
    store.send([{ id: 'chat2', parentId: 'other' }]);
    // agent over chat1 (11, its own 22 not counted), other over chat2 (11 of input, its own output absent): 22 input, 10 output.
    expect(store.trace!.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
    store.send([
      { id: 'chat1', parentId: 'other' },
      { id: 'chat2', parentId: 'agent' },
    ]);
    expect(store.trace!.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
  });

  it('changes nothing when the same export arrives again', () => {
    const store = new TraceStore();
    store.send([CHAT_1, CHAT_2]);
    store.send([AGENT]);
    const before = structuredClone(store.trace);
    store.send([CHAT_1, AGENT, CHAT_2]);
    expect(store.trace!.usage).toEqual(before!.usage);
    expect(store.trace!.costUsd).toBe(before!.costUsd);
  });

  it('walks up only while a subtree starts or stops carrying a key: a leaf under a deep chain rewrites its parent alone', () => {
    const store = new TraceStore();
    const depth = 2000;
    const chain = Array.from({ length: depth }, (_, i) => span(`c${i}`, i === 0 ? null : `c${i - 1}`, { usage: { inputTokens: 1 } }));
    // Root first, in pieces, as a long agent loop would send it: each piece touches its own spans and the parent above it.
    for (let at = 0; at < depth; at += 100) {
      store.send(chain.slice(at, at + 100));
      expect(store.last!.changedSpans.length).toBeLessThanOrEqual(101);
    }
    expect(store.trace!.usage).toEqual({ inputTokens: 1 });
    store.send([span('leaf', `c${depth - 1}`, { usage: { inputTokens: 5 } })]);
    expect(store.last!.changedSpans.map((s) => s.id)).toEqual(['leaf', `c${depth - 1}`]);
    expect(store.trace!.usage).toEqual({ inputTokens: 5 });
    // A key new to the chain climbs it all: the only walk as long as the depth.
    store.send([{ id: 'leaf', usage: { inputTokens: 5, images: 1 } }]);
    expect(store.last!.changedSpans).toHaveLength(depth + 1);
    expect(store.trace!.usage).toEqual({ inputTokens: 5, images: 1 });
  });

  it('agrees with the rule on random trees, random arrival orders and upserts', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const usageOf = (): Record<string, number> | undefined => {
      if (random() < 0.3) return undefined;
      const usage: Record<string, number> = {};
      for (const key of ['inputTokens', 'outputTokens', 'images']) if (random() < 0.6) usage[key] = Math.floor(random() * 50);
      return usage;
    };
    for (let round = 0; round < 200; round++) {
      const ids = Array.from({ length: 2 + Math.floor(random() * 25) }, (_, i) => `s${i}`);
      // Parents among earlier ids only: a tree (some under a parent that never arrives); arrival order is then shuffled.
      const root = () => (random() < 0.5 ? null : 'ghost');
      const spans = ids.map((id, i) =>
        span(id, i === 0 || random() < 0.1 ? root() : pick(ids.slice(0, i)), { usage: usageOf(), costUsd: random() < 0.5 ? Math.floor(random() * 100) / 1000 : undefined }),
      );
      const order = [...spans].sort(() => random() - 0.5);
      const store = new TraceStore();
      while (order.length) store.send(order.splice(0, 1 + Math.floor(random() * 4)));
      for (let change = 0; change < 5; change++) {
        const target = pick(ids);
        const index = ids.indexOf(target);
        const update: SpanInput = { id: target };
        if (random() < 0.5) update.usage = usageOf() ?? {};
        if (random() < 0.3) update.costUsd = random() < 0.5 ? null : 0.5;
        // A new parent among earlier ids keeps it a tree.
        if (index > 0 && random() < 0.4) update.parentId = pick(ids.slice(0, index));
        store.send([update]);
      }
      const expected = expectedSums(store.spans.values());
      expect(roundAll(store.trace!.usage)).toEqual(roundAll(expected.usage));
      if (expected.costUsd === null) expect(store.trace!.costUsd).toBeNull();
      else expect(store.trace!.costUsd).toBeCloseTo(expected.costUsd, 9);
      // From scratch, the spans give the same tree and sums the merges kept.
      const whole = countWholeTrace([...store.spans.values()]);
      expect(roundAll(whole.usage)).toEqual(roundAll(store.trace!.usage));
      expect(new Map([...whole.tree.below].map(([id, c]) => [id, c]))).toEqual(store.tree.below);
      expect(whole.tree.awaiting).toEqual(store.tree.awaiting);
    }
  });
});

/** Sums rounded, zeros left out: a key whose spans all went keeps 0 in the trace's usage, as before the rule. */
const roundAll = (usage: Record<string, number>): Record<string, number> =>
  Object.fromEntries<number>(
    Object.entries(usage)
      .map(([k, v]): [string, number] => [k, Math.round(v * 1e6) / 1e6])
      .filter(([, v]) => v !== 0),
  );
