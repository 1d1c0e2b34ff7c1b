import type { StoredSpan, StoredTrace } from '@cinetrace/traces';

/** Column lists and row codecs of the traces and spans tables (JSON as text, times as epoch ms). */
export const TRACE_KEY = ['project_id', 'id'] as const;
export const TRACE_COLUMNS = [
  'project_id', 'id', 'name', 'status', 'status_explicit', 'start_time', 'start_explicit', 'end_time', 'input', 'output',
  'metadata', 'tags', 'user_id', 'session_id', 'span_count', 'error_count', 'usage', 'cost_usd', 'cost_spans',
  'created_at', 'updated_at',
] as const;
export const TRACE_UPDATE = TRACE_COLUMNS.filter((c) => !TRACE_KEY.includes(c as never) && c !== 'created_at');

export const SPAN_KEY = ['project_id', 'trace_id', 'id'] as const;
export const SPAN_COLUMNS = [
  'project_id', 'trace_id', 'id', 'parent_id', 'name', 'kind', 'status', 'status_message', 'start_time', 'end_time',
  'model', 'input', 'output', 'usage', 'cost_usd', 'attributes', 'events',
] as const;
export const SPAN_UPDATE = SPAN_COLUMNS.filter((c) => !SPAN_KEY.includes(c as never));

type Row = Record<string, unknown>;

const toJson = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const fromJson = (text: unknown) => (text === null || text === undefined ? null : JSON.parse(String(text)));
/** PostgreSQL hands bigint back as a string. */
const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function traceToRow(t: StoredTrace): unknown[] {
  return [
    t.projectId, t.id, t.name, t.status, t.statusExplicit ? 1 : 0, t.startTime, t.startExplicit ? 1 : 0, t.endTime,
    toJson(t.input), toJson(t.output), JSON.stringify(t.metadata), JSON.stringify(t.tags), t.userId, t.sessionId,
    t.spanCount, t.errorCount, JSON.stringify(t.usage), t.costUsd, t.costSpans, t.createdAt, t.updatedAt,
  ];
}

export function traceFromRow(row: Row, withPayload = true): StoredTrace {
  return {
    projectId: row.project_id as string,
    id: row.id as string,
    name: (row.name as string | null) ?? null,
    status: row.status as StoredTrace['status'],
    statusExplicit: Number(row.status_explicit) === 1,
    startTime: Number(row.start_time),
    startExplicit: Number(row.start_explicit) === 1,
    endTime: toNumber(row.end_time),
    input: withPayload ? fromJson(row.input) : null,
    output: withPayload ? fromJson(row.output) : null,
    metadata: fromJson(row.metadata) ?? {},
    tags: fromJson(row.tags) ?? [],
    userId: (row.user_id as string | null) ?? null,
    sessionId: (row.session_id as string | null) ?? null,
    spanCount: Number(row.span_count),
    errorCount: Number(row.error_count),
    usage: fromJson(row.usage) ?? {},
    costUsd: toNumber(row.cost_usd),
    costSpans: Number(row.cost_spans),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function spanToRow(projectId: string, traceId: string, s: StoredSpan): unknown[] {
  return [
    projectId, traceId, s.id, s.parentId, s.name, s.kind, s.status, s.statusMessage, s.startTime, s.endTime, s.model,
    toJson(s.input), toJson(s.output), toJson(s.usage), s.costUsd, toJson(s.attributes), toJson(s.events),
  ];
}

export function spanFromRow(row: Row): StoredSpan {
  return {
    id: row.id as string,
    parentId: (row.parent_id as string | null) ?? null,
    name: row.name as string,
    kind: row.kind as StoredSpan['kind'],
    status: row.status as StoredSpan['status'],
    statusMessage: (row.status_message as string | null) ?? null,
    startTime: Number(row.start_time),
    endTime: toNumber(row.end_time),
    model: (row.model as string | null) ?? null,
    input: fromJson(row.input),
    output: fromJson(row.output),
    usage: fromJson(row.usage),
    costUsd: toNumber(row.cost_usd),
    attributes: fromJson(row.attributes),
    events: fromJson(row.events),
  };
}
