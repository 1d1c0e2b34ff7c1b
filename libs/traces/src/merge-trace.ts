import type { SpanInput, TraceInput } from '@cinetrace/contracts';
import { measureSpan } from './span-json';
import type { StoredSpan, StoredTrace } from './stored-trace';
import { addDropped, DEFAULT_TRACE_LIMITS, DroppedParts, droppedAnything, noneDropped, TraceLimits } from './trace-limits';
import { setOwn } from './set-own';
import { countSpanChange, emptyUsageTree, type UsageTree, type UsageTreeChanges } from './usage-tree';

/**
 * What a merge needs of the stored trace: its row, and the stored versions of the spans
 * the input names (no others: summaries are kept up to date incrementally, so a trace
 * sent in many small pieces never reloads all its spans).
 */
export interface TraceState {
  trace: StoredTrace;
  /** The spans the input names, and every stored ancestor of those whose usage or cost moves (usage-tree.ts). */
  spans: Map<string, StoredSpan>;
  /** What the sums know of the tree, for those spans and their missing parents; absent: nothing yet. */
  tree?: UsageTree;
}

export interface MergeResult {
  trace: StoredTrace;
  /** Spans this input created or changed, and ancestors whose usage counts (usage-tree.ts) changed: the rows to upsert. */
  changedSpans: StoredSpan[];
  /** The tree after the merge (the state's, changed in place, or a new one). */
  tree: UsageTree;
  /** Missing parents whose `tree.awaiting` entry changed: upserted, or deleted when gone. */
  changedAwaiting: string[];
  /** Whether anything at all changed (an identical resend changes nothing). */
  changed: boolean;
  /** What of this input was left out to keep the trace within its limits; null if nothing. */
  dropped: DroppedParts | null;
}

/**
 * The upsert rule of API.md: fields present in the input replace the stored ones,
 * `metadata` merges key by key, `tags` are united, spans are upserted by id (a present
 * span field replaces, an absent one keeps). Applying the same input twice gives the
 * same state, which is what makes at-least-once delivery safe.
 *
 * The limits hold on the result: what was stored stays, and what of the input would take
 * the trace past a limit is left out, in input order (a tag past the 50th, a metadata key
 * that would take metadata past 64 KiB, a new span past the span count, a span that would
 * grow the spans past their bytes), and recorded in `dropped`: the rule is deterministic,
 * so a redelivered input drops the same parts again.
 */
export function mergeTrace(projectId: string, state: TraceState | undefined, input: TraceInput, receivedAt: number, limits: TraceLimits = DEFAULT_TRACE_LIMITS): MergeResult {
  const old = state?.trace;
  const trace: StoredTrace = old ? { ...old, metadata: { ...old.metadata }, tags: [...old.tags], usage: { ...old.usage } } : newTrace(projectId, input.id, receivedAt);
  const stored = state?.spans ?? new Map<string, StoredSpan>();
  const tree = state?.tree ?? emptyUsageTree();
  const treeChanges: UsageTreeChanges = { below: new Set(), awaiting: new Set() };
  const dropped = noneDropped();

  const changedSpans: StoredSpan[] = [];
  for (const incoming of input.spans) {
    const before = stored.get(incoming.id);
    const after = mergeSpan(before, incoming);
    const afterMeasure = measureSpan(after);
    const beforeMeasure = before ? measureSpan(before) : undefined;
    if (beforeMeasure && beforeMeasure.identity === afterMeasure.identity) continue;
    const bytesBefore = beforeMeasure ? beforeMeasure.bytes : 0;
    const bytesAfter = afterMeasure.bytes;
    const overCount = !before && trace.spanCount >= limits.maxSpans;
    // A span that shrinks is always taken: it moves the trace back towards its bound.
    const overBytes = bytesAfter > bytesBefore && trace.spanBytes - bytesBefore + bytesAfter > limits.maxSpanBytes;
    if (overCount || overBytes) {
      dropped.spanIds.push(incoming.id);
      continue;
    }
    countSpanChange(trace, stored, tree, treeChanges, before, after);
    trace.spanBytes = Math.max(0, trace.spanBytes - bytesBefore) + bytesAfter;
    stored.set(after.id, after);
    changedSpans.push(after);
  }

  if (input.name !== undefined) trace.name = input.name;
  if (input.input !== undefined) trace.input = input.input;
  if (input.output !== undefined) trace.output = input.output;
  if (input.userId !== undefined) trace.userId = input.userId;
  if (input.sessionId !== undefined) trace.sessionId = input.sessionId;
  if (input.endTime !== undefined) trace.endTime = input.endTime;
  if (input.metadata !== undefined) dropped.metadataKeys.push(...mergeMetadata(trace.metadata, input.metadata, limits.metadataMaxBytes));
  for (const tag of input.tags ?? []) {
    if (trace.tags.includes(tag)) continue;
    if (trace.tags.length < limits.maxTags) trace.tags.push(tag);
    else dropped.tags.push(tag);
  }
  trace.dropped = addDropped(trace.dropped, dropped);
  if (input.status !== undefined) {
    trace.status = input.status;
    trace.statusExplicit = true;
  } else if (!trace.statusExplicit) {
    trace.status = trace.endTime === null ? 'running' : 'ok';
  }
  if (input.startTime !== undefined) {
    trace.startTime = input.startTime;
    trace.startExplicit = true;
  } else if (!trace.startExplicit) {
    // Derived: the earliest span seen, else when the trace first arrived.
    const earliest = Math.min(...changedSpans.map((s) => s.startTime));
    if (!old || trace.spanCount === changedSpans.length) trace.startTime = Number.isFinite(earliest) ? earliest : trace.startTime;
    else if (earliest < trace.startTime) trace.startTime = earliest;
  }

  const merged = new Set(changedSpans.map((s) => s.id));
  for (const id of treeChanges.below) if (!merged.has(id) && stored.has(id)) changedSpans.push(stored.get(id)!);

  const changed = !old || changedSpans.length > 0 || !sameJson({ ...old, updatedAt: 0 }, { ...trace, updatedAt: 0 });
  if (changed && old) trace.updatedAt = Math.max(receivedAt, old.updatedAt);
  return { trace, changedSpans, changed, dropped: droppedAnything(dropped) ? dropped : null, tree, changedAwaiting: [...treeChanges.awaiting] };
}

/**
 * Sets the input's keys on `metadata` in order, each unless it would take the serialised
 * object past `maxBytes`; answers the keys left out. Sizes are kept by entry
 * (`"key":value`), so a large object costs one serialisation, not one per key.
 */
function mergeMetadata(metadata: Record<string, unknown>, input: Record<string, unknown>, maxBytes: number): string[] {
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const inputBytes = bytes(input);
  let total = bytes(metadata);
  // The merged object is never larger than both together: no key can be over, set them all.
  if (total + inputBytes <= maxBytes) {
    for (const [key, value] of Object.entries(input)) setOwn(metadata, key, value);
    return [];
  }
  const left: string[] = [];
  let count = Object.keys(metadata).length;
  const entryBytes = (key: string, value: unknown) => bytes(key) + 1 + bytes(value);
  for (const [key, value] of Object.entries(input)) {
    const had = Object.hasOwn(metadata, key);
    // An entry after the first adds a comma.
    const next = had ? total - entryBytes(key, metadata[key]) + entryBytes(key, value) : total + entryBytes(key, value) + (count > 0 ? 1 : 0);
    if (next > maxBytes) {
      left.push(key);
      continue;
    }
    setOwn(metadata, key, value);
    total = next;
    if (!had) count += 1;
  }
  return left;
}

function newTrace(projectId: string, id: string, receivedAt: number): StoredTrace {
  return {
    projectId,
    id,
    name: null,
    status: 'running',
    statusExplicit: false,
    startTime: receivedAt,
    startExplicit: false,
    endTime: null,
    input: null,
    output: null,
    metadata: {},
    tags: [],
    userId: null,
    sessionId: null,
    spanCount: 0,
    errorCount: 0,
    usage: {},
    costUsd: null,
    costSpans: 0,
    spanBytes: 0,
    dropped: null,
    createdAt: receivedAt,
    updatedAt: receivedAt,
  };
}

function mergeSpan(before: StoredSpan | undefined, input: SpanInput): StoredSpan {
  const base: StoredSpan = before ?? {
    id: input.id,
    parentId: null,
    name: input.name ?? '',
    kind: 'span',
    status: 'unset',
    statusMessage: null,
    startTime: input.startTime ?? 0,
    endTime: null,
    model: null,
    input: null,
    output: null,
    usage: null,
    costUsd: null,
    costSource: null,
    attributes: null,
    events: null,
  };
  const next = { ...base };
  // `for…in` over the input's own fields (a plain object from validation): no entry arrays.
  for (const field in input) {
    const value = (input as unknown as Record<string, unknown>)[field];
    if (value !== undefined) (next as Record<string, unknown>)[field] = value;
  }
  return next;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
