import { setOwn } from './set-own';
import type { StoredSpan, StoredTrace } from './stored-trace';

/**
 * The rule a trace's `usage` and `costUsd` follow (docs/decisions, "Usage counted once"):
 * each usage key, and the cost, sums the figures of the spans that carry it, except a
 * span one of whose descendants carries it too: an instrumentation that repeats its
 * children's figures on their parent (the AI SDK's `invoke_agent`) is not counted twice.
 * "Carries" means the key is present in the span's `usage` (the cost: `costUsd` not null).
 *
 * The sums are kept incrementally, whatever order spans arrive in: for each span, how
 * many of its children head a subtree that carries each key (`below`: a descendant
 * carries it exactly when that count is not 0); for each parent not stored yet, how many
 * of the subtrees hanging from it do (`awaiting`), taken over when it arrives. A span's
 * change walks up its ancestors only while whether their subtree carries a key changes:
 * at most its depth, mostly one step (its parent's subtree carried the key already).
 */

/** Per usage key, and for the cost, a count of spans or subtrees that carry it. */
export interface UsageCounts {
  usage: Record<string, number>;
  cost: number;
}

export interface UsageTree {
  /** Per span id: how many of its children's subtrees carry each key. Absent: none carries anything. */
  below: Map<string, UsageCounts>;
  /** Per parent id that names no span stored (yet): how many of the subtrees hanging from it carry each key. */
  awaiting: Map<string, UsageCounts>;
}

export const emptyUsageTree = (): UsageTree => ({ below: new Map(), awaiting: new Map() });

export const isEmptyCounts = (counts: UsageCounts | undefined | null): boolean => {
  if (!counts) return true;
  if (counts.cost !== 0) return false;
  for (const _ in counts.usage) return false;
  return true;
};

/** What a merge changes of the tree: the rows to write again. */
export interface UsageTreeChanges {
  /** Spans whose `below` changed (their own figures did not: they may not be among the merged spans). */
  below: Set<string>;
  /** Parents whose `awaiting` entry changed or went (then deleted). */
  awaiting: Set<string>;
}

// Sums are rounded to 1e-9 so that adding and removing a span's cost leaves no float dust.
const round = (value: number) => Math.round(value * 1e9) / 1e9;

/** Adds (sign 1) or takes out (-1) a span's figure for `key` from the trace's usage. */
function countUsage(trace: StoredTrace, key: string, value: number, sign: 1 | -1): void {
  // Own keys only: `toString` would read Object.prototype's function, `__proto__` set the prototype.
  const before = Object.hasOwn(trace.usage, key) ? trace.usage[key] : 0;
  setOwn(trace.usage, key, round(before + sign * value));
}

function countCost(trace: StoredTrace, value: number, sign: 1 | -1): void {
  trace.costUsd = round((trace.costUsd ?? 0) + sign * value);
}

const carries = (span: StoredSpan, key: string) => span.usage !== null && Object.hasOwn(span.usage, key);
const countOf = (counts: UsageCounts | undefined, key: string) => (counts !== undefined && Object.hasOwn(counts.usage, key) ? counts.usage[key] : 0);

/** The keys (and the cost) the subtree of a span carries: its own, and those one of its children's subtrees carries. */
function subtreeCarries(span: StoredSpan, below: UsageCounts | undefined): UsageCounts {
  const usage: Record<string, number> = {};
  for (const key of Object.keys(span.usage ?? {})) setOwn(usage, key, 1);
  for (const key of Object.keys(below?.usage ?? {})) if (below!.usage[key] > 0) setOwn(usage, key, 1);
  return { usage, cost: span.costUsd !== null || (below?.cost ?? 0) > 0 ? 1 : 0 };
}

/** a + sign × b, keys whose count reaches 0 left out. */
function combined(a: UsageCounts | undefined, b: UsageCounts, sign: 1 | -1): UsageCounts {
  const usage: Record<string, number> = { ...a?.usage };
  for (const key of Object.keys(b.usage)) {
    const next = (Object.hasOwn(usage, key) ? usage[key] : 0) + sign * b.usage[key];
    if (next === 0) delete usage[key];
    else setOwn(usage, key, next);
  }
  return { usage, cost: (a?.cost ?? 0) + sign * b.cost };
}

/**
 * Applies one span's change to the trace's sums and to the tree: `before` is its stored
 * version (undefined for a new span), `after` what the merge made of it. `spans` must hold
 * every stored ancestor of both versions (a parent it lacks is taken as not stored), and
 * the span's `after` is set in it by the caller once this returns.
 */
export function countSpanChange(
  trace: StoredTrace,
  spans: ReadonlyMap<string, StoredSpan>,
  tree: UsageTree,
  changes: UsageTreeChanges,
  before: StoredSpan | undefined,
  after: StoredSpan,
): void {
  if (!before) {
    // A span some stored spans named as their parent: what they carry now hangs from it.
    const waited = tree.awaiting.get(after.id);
    if (waited) {
      tree.awaiting.delete(after.id);
      changes.awaiting.add(after.id);
      tree.below.set(after.id, waited);
      changes.below.add(after.id);
    }
  }
  const below = tree.below.get(after.id);
  if (before) countOwnFigures(trace, before, below, -1);
  countOwnFigures(trace, after, below, 1);

  const carriedAfter = subtreeCarries(after, below);
  if (before && before.parentId === after.parentId) {
    const delta = combined(carriedAfter, subtreeCarries(before, below), -1);
    if (!isEmptyCounts(delta)) carryUp(trace, spans, tree, changes, after.parentId, delta, after.id);
    return;
  }
  if (before) {
    const leaving = subtreeCarries(before, below);
    if (!isEmptyCounts(leaving)) carryUp(trace, spans, tree, changes, before.parentId, combined(undefined, leaving, -1), after.id);
  }
  if (!isEmptyCounts(carriedAfter)) carryUp(trace, spans, tree, changes, after.parentId, carriedAfter, after.id);
}

/** The span's own figures in or out of the sums: those of keys no descendant carries. */
function countOwnFigures(trace: StoredTrace, span: StoredSpan, below: UsageCounts | undefined, sign: 1 | -1): void {
  if (span.status === 'error') trace.errorCount += sign;
  trace.spanCount += sign;
  if (span.costUsd !== null) {
    trace.costSpans += sign;
    if (!((below?.cost ?? 0) > 0)) countCost(trace, span.costUsd, sign);
    if (trace.costSpans === 0) trace.costUsd = null;
  }
  for (const [key, value] of Object.entries(span.usage ?? {})) {
    if (!(countOf(below, key) > 0)) countUsage(trace, key, value, sign);
  }
}

/**
 * Adds `delta` (+1 or -1 per key: a child's subtree starts or stops carrying it) to the
 * `below` of the parent `parentId`; a parent that starts or stops having a descendant
 * carrying a key it carries itself takes its own figure out of the sums or puts it back.
 * Goes on up with the keys whose carrying by the parent's subtree changed, and stops when
 * none did; a parent not in `spans` keeps the delta in `awaiting`.
 */
function carryUp(
  trace: StoredTrace,
  spans: ReadonlyMap<string, StoredSpan>,
  tree: UsageTree,
  changes: UsageTreeChanges,
  parentId: string | null,
  delta: UsageCounts,
  from: string,
): void {
  // A cycle is refused at ingest; the bound only makes sure a walk never loops.
  let steps = spans.size + 1;
  for (let at = parentId; at !== null && at !== from && steps-- > 0;) {
    const span = spans.get(at);
    if (!span) {
      const waiting = combined(tree.awaiting.get(at), delta, 1);
      if (isEmptyCounts(waiting)) tree.awaiting.delete(at);
      else tree.awaiting.set(at, waiting);
      changes.awaiting.add(at);
      return;
    }
    const old = tree.below.get(at);
    const next = combined(old, delta, 1);
    if (isEmptyCounts(next)) tree.below.delete(at);
    else tree.below.set(at, next);
    changes.below.add(at);
    const onward: UsageCounts = { usage: {}, cost: 0 };
    for (const key of Object.keys(delta.usage)) {
      const had = countOf(old, key) > 0;
      const has = countOf(next, key) > 0;
      if (had === has) continue;
      if (carries(span, key)) countUsage(trace, key, span.usage![key], has ? -1 : 1);
      else setOwn(onward.usage, key, has ? 1 : -1);
    }
    if (delta.cost !== 0) {
      const had = (old?.cost ?? 0) > 0;
      const has = next.cost > 0;
      if (had !== has) {
        if (span.costUsd !== null) countCost(trace, span.costUsd, has ? -1 : 1);
        else onward.cost = has ? 1 : -1;
      }
    }
    if (isEmptyCounts(onward)) return;
    delta = onward;
    at = span.parentId;
  }
}

/**
 * The tree and the sums of a whole trace's spans, computed from scratch: what the
 * incremental counting must agree with (its specs), and how traces stored before the rule
 * are counted again (the migration).
 */
export function countWholeTrace(spans: readonly StoredSpan[]): { tree: UsageTree; usage: Record<string, number>; costUsd: number | null } {
  const trace = { usage: {}, costUsd: null, costSpans: 0, spanCount: 0, errorCount: 0 } as unknown as StoredTrace;
  const byId = new Map<string, StoredSpan>();
  const tree = emptyUsageTree();
  const changes: UsageTreeChanges = { below: new Set(), awaiting: new Set() };
  for (const span of spans) {
    countSpanChange(trace, byId, tree, changes, undefined, span);
    byId.set(span.id, span);
  }
  return { tree, usage: trace.usage, costUsd: trace.costUsd };
}
