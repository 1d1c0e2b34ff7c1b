import type { SpanInput, TraceInput } from '@cinetrace/contracts';
import type { StoredSpan, StoredTrace } from './stored-trace';

/**
 * What a merge needs of the stored trace: its row, and the stored versions of the spans
 * the input names (no others: summaries are kept up to date incrementally, so a trace
 * sent in many small pieces never reloads all its spans).
 */
export interface TraceState {
  trace: StoredTrace;
  spans: Map<string, StoredSpan>;
}

export interface MergeResult {
  trace: StoredTrace;
  /** Spans this input created or changed: the rows to upsert. */
  changedSpans: StoredSpan[];
  /** Whether anything at all changed (an identical resend changes nothing). */
  changed: boolean;
}

/**
 * The upsert rule of API.md: fields present in the input replace the stored ones,
 * `metadata` merges key by key, `tags` are united, spans are upserted by id (a present
 * span field replaces, an absent one keeps). Applying the same input twice gives the
 * same state, which is what makes at-least-once delivery safe.
 */
export function mergeTrace(projectId: string, state: TraceState | undefined, input: TraceInput, receivedAt: number): MergeResult {
  const old = state?.trace;
  const trace: StoredTrace = old ? { ...old, metadata: { ...old.metadata }, tags: [...old.tags], usage: { ...old.usage } } : newTrace(projectId, input.id, receivedAt);
  const stored = state?.spans ?? new Map<string, StoredSpan>();

  const changedSpans: StoredSpan[] = [];
  for (const incoming of input.spans) {
    const before = stored.get(incoming.id);
    const after = mergeSpan(before, incoming);
    if (before && sameJson(before, after)) continue;
    if (before) subtractSpan(trace, before);
    addSpan(trace, after);
    stored.set(after.id, after);
    changedSpans.push(after);
  }

  if (input.name !== undefined) trace.name = input.name;
  if (input.input !== undefined) trace.input = input.input;
  if (input.output !== undefined) trace.output = input.output;
  if (input.userId !== undefined) trace.userId = input.userId;
  if (input.sessionId !== undefined) trace.sessionId = input.sessionId;
  if (input.endTime !== undefined) trace.endTime = input.endTime;
  if (input.metadata !== undefined) Object.assign(trace.metadata, input.metadata);
  if (input.tags !== undefined) for (const tag of input.tags) if (!trace.tags.includes(tag)) trace.tags.push(tag);
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

  const changed = !old || changedSpans.length > 0 || !sameJson({ ...old, updatedAt: 0 }, { ...trace, updatedAt: 0 });
  if (changed && old) trace.updatedAt = Math.max(receivedAt, old.updatedAt);
  return { trace, changedSpans, changed };
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
    attributes: null,
    events: null,
  };
  const next = { ...base };
  for (const [field, value] of Object.entries(input)) {
    if (value !== undefined) (next as Record<string, unknown>)[field] = value;
  }
  return next;
}

// Sums are rounded to 1e-9 so that adding and removing a span's cost leaves no float dust.
const round = (value: number) => Math.round(value * 1e9) / 1e9;

function addSpan(trace: StoredTrace, span: StoredSpan, sign: 1 | -1 = 1): void {
  trace.spanCount += sign;
  if (span.status === 'error') trace.errorCount += sign;
  if (span.costUsd !== null) {
    trace.costUsd = round((trace.costUsd ?? 0) + sign * span.costUsd);
    trace.costSpans += sign;
    if (trace.costSpans === 0) trace.costUsd = null;
  }
  for (const [key, value] of Object.entries(span.usage ?? {})) {
    const sum = round((trace.usage[key] ?? 0) + sign * value);
    trace.usage[key] = sum;
  }
}

function subtractSpan(trace: StoredTrace, span: StoredSpan): void {
  addSpan(trace, span, -1);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
