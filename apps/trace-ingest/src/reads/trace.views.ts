import type { ScoreView, TraceFieldsView } from '@cinetrace/contracts';
import { withMicros, type StoredTrace, type TimelineSpan } from '@cinetrace/traces';
import type { Row } from '../store/trace-reads';
import type { StoredSpanText } from '../store/trace-rows';
import { eventsJson } from './events-json';
import { durationMs, isoTime } from './readable-time';

const iso = isoTime;
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** The fields a trace's list item and its GET share (each adds its own `scores`). */
export function toSummaryView(t: StoredTrace): TraceFieldsView {
  return {
    id: t.id,
    projectId: t.projectId,
    name: t.name,
    status: t.status,
    startTime: iso(t.startTime),
    endTime: isoOrNull(t.endTime),
    durationMs: durationMs(t.startTime, t.endTime),
    spanCount: t.spanCount,
    errorCount: t.errorCount,
    tags: t.tags,
    metadata: t.metadata,
    userId: t.userId,
    sessionId: t.sessionId,
    usage: t.usage,
    costUsd: t.costUsd,
    dropped: t.dropped,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

/**
 * A list item (TraceSummaryView) as JSON text, written from its row: the stored JSON columns
 * (tags, metadata, usage, dropped) are spliced in as the text JSON.stringify wrote, not
 * parsed here and serialized again by the gateway. A spec holds it to toSummaryView's JSON.
 * `scores`: the latest value of each score name on the trace (selectLatestScores).
 */
export function summaryViewJson(row: Row, scores: Record<string, number | string | null> = {}): string {
  const startTime = withMicros(Number(row.start_time), Number(row.start_time_us ?? 0));
  const endTime = row.end_time === null || row.end_time === undefined ? null : withMicros(Number(row.end_time), Number(row.end_time_us ?? 0));
  const costUsd = row.cost_usd === null || row.cost_usd === undefined ? null : Number(row.cost_usd);
  return (
    `{"id":${JSON.stringify(row.id)},"projectId":${JSON.stringify(row.project_id)},"name":${JSON.stringify(row.name ?? null)},` +
    `"status":${JSON.stringify(row.status)},"startTime":"${iso(startTime)}","endTime":${JSON.stringify(isoOrNull(endTime))},` +
    `"durationMs":${JSON.stringify(durationMs(startTime, endTime))},"spanCount":${Number(row.span_count)},"errorCount":${Number(row.error_count)},` +
    `"tags":${columnText(row.tags, '[]')},"metadata":${columnText(row.metadata, '{}')},"userId":${JSON.stringify(row.user_id ?? null)},` +
    `"sessionId":${JSON.stringify(row.session_id ?? null)},"usage":${columnText(row.usage, '{}')},"costUsd":${JSON.stringify(costUsd)},` +
    `"dropped":${columnText(row.dropped, 'null')},"createdAt":"${iso(Number(row.created_at))}","updatedAt":"${iso(Number(row.updated_at))}",` +
    `"scores":${JSON.stringify(scores)}}`
  );
}

/** A stored JSON column's text, or what an absent value reads as. */
const columnText = (value: unknown, absent: string) => (value === null || value === undefined ? absent : String(value));

/**
 * A trace's GET answer (TraceView) as JSON text, written from what is stored: the JSON
 * columns (input, output, usage, attributes) are spliced in as the text they are stored as
 * (written by JSON.stringify), not parsed and serialized again: on a large trace that is a
 * large share of a GET's CPU. The gateway sends the text on as it is (JsonText).
 */
export function traceViewJson(
  t: StoredTrace,
  payload: { input: string | null; output: string | null },
  spans: TimelineSpan<StoredSpanText>[],
  scores: readonly ScoreView[] = [],
): string {
  const summary = JSON.stringify(toSummaryView(t));
  const parts = spans.map(spanViewJson);
  return `${summary.slice(0, -1)},"scores":${JSON.stringify(scores)},"input":${json(payload.input)},"output":${json(payload.output)},"spans":[${parts.join(',')}]}`;
}

/** A SpanView as JSON text, its fields in SpanView's order. */
function spanViewJson({ span: s, depth }: TimelineSpan<StoredSpanText>): string {
  return (
    `{"id":${JSON.stringify(s.id)},"parentId":${JSON.stringify(s.parentId)},"name":${JSON.stringify(s.name)},` +
    `"kind":${JSON.stringify(s.kind)},"status":${JSON.stringify(s.status)},"statusMessage":${JSON.stringify(s.statusMessage)},` +
    `"startTime":${JSON.stringify(iso(s.startTime))},"endTime":${JSON.stringify(isoOrNull(s.endTime))},` +
    `"durationMs":${JSON.stringify(durationMs(s.startTime, s.endTime))},"depth":${depth},"model":${JSON.stringify(s.model)},` +
    `"input":${json(s.input)},"output":${json(s.output)},"usage":${json(s.usage)},"costUsd":${JSON.stringify(s.costUsd)},` +
    `"costSource":${JSON.stringify(s.costSource)},` +
    `"attributes":${json(s.attributes)},"events":${eventsJson(s.events)}}`
  );
}

/** A stored JSON column as it goes into the answer: its text, or null. */
const json = (text: string | null) => text ?? 'null';
