import { spanFieldTexts, splitMicros, withMicros, type StoredSpan, type StoredTrace, type UsageCounts } from '@cinetrace/traces';
import { AttributeCopies, withCopies, withoutCopies } from './attribute-copies';
import type { UpsertTable } from './sql-builder';
import { belowCells } from './usage-tree-rows';

/**
 * The tables trace-ingest writes (JSON as text, times as epoch ms and the microseconds past
 * them), and the row codecs of traces and spans.
 */
// Columns packed by hand, as the table has them:
// prettier-ignore
export const TRACE_TABLE = upsertTable('traces', ['project_id', 'id'], [
  ['project_id', 'text'], ['id', 'text'], ['name', 'text'], ['status', 'text'], ['status_explicit', 'int2'], ['start_time', 'int8'],
  ['start_explicit', 'int2'], ['end_time', 'int8'], ['input', 'text'], ['output', 'text'], ['metadata', 'text'], ['tags', 'text'],
  ['user_id', 'text'], ['session_id', 'text'], ['span_count', 'int4'], ['error_count', 'int4'], ['usage', 'text'],
  ['cost_usd', 'float8'], ['cost_spans', 'int4'], ['created_at', 'int8'], ['updated_at', 'int8'], ['span_bytes', 'int8'],
  ['dropped', 'text'],
  ['start_time_us', 'int2'], ['end_time_us', 'int2'],
], ['created_at']);

// Columns packed by hand, as the table has them:
// prettier-ignore
export const SPAN_TABLE = upsertTable('spans', ['project_id', 'trace_id', 'id'], [
  ['project_id', 'text'], ['trace_id', 'text'], ['id', 'text'], ['parent_id', 'text'], ['name', 'text'], ['kind', 'text'],
  ['start_time_us', 'int2'], ['end_time_us', 'int2'], ['usage_below', 'text'], ['cost_below', 'int4'],
  ['status', 'text'], ['status_message', 'text'], ['start_time', 'int8'], ['end_time', 'int8'], ['model', 'text'],
  ['input', 'text'], ['output', 'text'], ['usage', 'text'], ['cost_usd', 'float8'], ['attributes', 'text'], ['events', 'text'],
  ['attribute_copies', 'text'], ['cost_source', 'text'],
]);

/** A tag's row is its key: written once, never updated. */
export const TAG_TABLE: UpsertTable = {
  name: 'trace_tags',
  columns: [
    ['project_id', 'text'],
    ['tag', 'text'],
    ['trace_id', 'text'],
  ],
  key: ['project_id', 'tag', 'trace_id'],
  update: [],
};

/** One per ingest message, for `Prefer: wait`: the first store of a message is the one that counts. */
// Columns packed by hand, as the table has them:
// prettier-ignore
export const RECEIPT_TABLE: UpsertTable = {
  name: 'trace_receipts',
  columns: [['ingest_id', 'text'], ['project_id', 'text'], ['trace_id', 'text'], ['stored_at', 'int8'], ['dropped', 'text']],
  key: ['ingest_id'],
  update: [],
};

/** A table whose upsert replaces every column but the key and those `kept` from the first write. */
function upsertTable(name: string, key: string[], columns: UpsertTable['columns'], kept: string[] = []): UpsertTable {
  const update = columns.map(([column]) => column).filter((c) => !key.includes(c) && !kept.includes(c));
  return { name, columns, key, update };
}

type Row = Record<string, unknown>;

export const toJson = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
/** A JSON column's value; T is what was stored there (from the same field of a StoredTrace or StoredSpan). */
const fromJson = <T = unknown>(text: unknown): T | null => (text === null || text === undefined ? null : (JSON.parse(String(text)) as T));
/** PostgreSQL hands bigint back as a string. */
const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** A time's two columns: whole milliseconds, and the microseconds past them (0 for a time not set). */
const timeCells = (time: number | null): [ms: number | null, micros: number] => {
  if (time === null) return [null, 0];
  const { ms, micros } = splitMicros(time);
  return [ms, micros];
};

/** A time from its two columns (a row stored before microseconds has none: 0). */
const timeOf = (ms: unknown, micros: unknown): number => withMicros(Number(ms), Number(micros ?? 0));
const timeOrNull = (ms: unknown, micros: unknown): number | null => (ms === null || ms === undefined ? null : timeOf(ms, micros));

export function traceToRow(t: StoredTrace): unknown[] {
  const [startMs, startMicros] = timeCells(t.startTime);
  const [endMs, endMicros] = timeCells(t.endTime);
  // Columns packed by hand, as the table has them:
  // prettier-ignore
  return [
    t.projectId, t.id, t.name, t.status, t.statusExplicit ? 1 : 0, startMs, t.startExplicit ? 1 : 0, endMs,
    toJson(t.input), toJson(t.output), JSON.stringify(t.metadata), JSON.stringify(t.tags), t.userId, t.sessionId,
    t.spanCount, t.errorCount, JSON.stringify(t.usage), t.costUsd, t.costSpans, t.createdAt, t.updatedAt, t.spanBytes,
    toJson(t.dropped),
    startMicros, endMicros,
  ];
}

export function traceFromRow(row: Row, withPayload = true): StoredTrace {
  return {
    projectId: row.project_id as string,
    id: row.id as string,
    name: (row.name as string | null) ?? null,
    status: row.status as StoredTrace['status'],
    statusExplicit: Number(row.status_explicit) === 1,
    startTime: timeOf(row.start_time, row.start_time_us),
    startExplicit: Number(row.start_explicit) === 1,
    endTime: timeOrNull(row.end_time, row.end_time_us),
    input: withPayload ? fromJson(row.input) : null,
    output: withPayload ? fromJson(row.output) : null,
    metadata: fromJson<StoredTrace['metadata']>(row.metadata) ?? {},
    tags: fromJson<StoredTrace['tags']>(row.tags) ?? [],
    userId: (row.user_id as string | null) ?? null,
    sessionId: (row.session_id as string | null) ?? null,
    spanCount: Number(row.span_count),
    errorCount: Number(row.error_count),
    usage: fromJson<StoredTrace['usage']>(row.usage) ?? {},
    costUsd: toNumber(row.cost_usd),
    costSpans: Number(row.cost_spans),
    spanBytes: Number(row.span_bytes ?? 0),
    dropped: fromJson<NonNullable<StoredTrace['dropped']>>(row.dropped),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A span's row; `below`: how many of its children's subtrees carry each usage key and a cost (usage-tree-rows.ts). */
export function spanToRow(projectId: string, traceId: string, s: StoredSpan, below?: UsageCounts): unknown[] {
  // The texts the merge wrote when it measured the span (measureSpan), else written here.
  const texts = spanFieldTexts(s);
  const input = texts ? column(texts.input) : toJson(s.input);
  const output = texts ? column(texts.output) : toJson(s.output);
  // The merge found the copies too when it wrote the texts; a span without texts looks here.
  const { attributesText, copies } = texts ? { attributesText: column(texts.storedAttributes), copies: texts.attributeCopies } : storedAttributes(s, input, output);
  const [startMs, startMicros] = timeCells(s.startTime);
  const [endMs, endMicros] = timeCells(s.endTime);
  const [usageBelow, costBelow] = belowCells(below);
  // Columns packed by hand, as the table has them:
  // prettier-ignore
  return [
    projectId, traceId, s.id, s.parentId, s.name, s.kind, startMicros, endMicros, usageBelow, costBelow,
    s.status, s.statusMessage, startMs, endMs, s.model,
    input, output, texts ? column(texts.usage) : toJson(s.usage), s.costUsd, attributesText, texts ? column(texts.events) : toJson(s.events), toJson(copies),
    s.costSource,
  ];
}

function storedAttributes(s: StoredSpan, input: string | null, output: string | null): { attributesText: string | null; copies: AttributeCopies | null } {
  const { attributes, copies } = withoutCopies(s.attributes, { value: s.input, text: input }, { value: s.output, text: output });
  return { attributesText: toJson(attributes), copies };
}

/** A field's JSON text as its column holds it: SQL NULL for null. */
const column = (text: string): string | null => (text === 'null' ? null : text);

/** A span's JSON columns: stored as JSON text (or NULL). */
export type SpanJsonColumn = 'input' | 'output' | 'usage' | 'attributes' | 'events';

/** A span as stored, its JSON columns left as that text: for answers written as JSON text. */
export type StoredSpanText = Omit<StoredSpan, SpanJsonColumn> & Record<SpanJsonColumn, string | null>;

export function spanFromRow(row: Row): StoredSpan {
  const span = decodeSpan(row, fromJson) as StoredSpan;
  if (row.attribute_copies) withCopies(span.attributes as Record<string, unknown>, copiesOf(row), payloadText(row));
  return span;
}

export function spanTextFromRow(row: Row): StoredSpanText {
  const span = decodeSpan(row, jsonText);
  if (row.attribute_copies) span.attributes = JSON.stringify(withCopies(JSON.parse(span.attributes as string) as Record<string, unknown>, copiesOf(row), payloadText(row)));
  return span;
}

const copiesOf = (row: Row) => JSON.parse(String(row.attribute_copies)) as AttributeCopies;
const payloadText = (row: Row) => ({ input: jsonText(row.input), output: jsonText(row.output) });

const jsonText = (text: unknown) => (text === null || text === undefined ? null : String(text));

/** A span stored before costs were priced has no source: its cost, if any, was sent. */
const costSourceOf = (row: Row): StoredSpan['costSource'] =>
  (row.cost_source as StoredSpan['costSource'] | undefined) ?? (row.cost_usd === null || row.cost_usd === undefined ? null : 'sent');

/** A span from its row, its JSON columns through `json` (one object literal: this runs for every span a GET reads). */
function decodeSpan<J>(row: Row, json: (text: unknown) => J): Omit<StoredSpan, SpanJsonColumn> & Record<SpanJsonColumn, J> {
  return {
    id: row.id as string,
    parentId: (row.parent_id as string | null) ?? null,
    name: row.name as string,
    kind: row.kind as StoredSpan['kind'],
    status: row.status as StoredSpan['status'],
    statusMessage: (row.status_message as string | null) ?? null,
    startTime: timeOf(row.start_time, row.start_time_us),
    endTime: timeOrNull(row.end_time, row.end_time_us),
    model: (row.model as string | null) ?? null,
    input: json(row.input),
    output: json(row.output),
    usage: json(row.usage),
    costUsd: toNumber(row.cost_usd),
    costSource: costSourceOf(row),
    attributes: json(row.attributes),
    events: json(row.events),
  };
}
