import type { SpanView, TraceSummaryView, TraceView } from '@cinetrace/contracts';
import { StoredTrace, TimelineSpan } from '@cinetrace/traces';
import { durationMs, readableTime } from './readable-time';

const iso = (ms: number) => new Date(readableTime(ms)).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function toSummaryView(t: StoredTrace): TraceSummaryView {
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

export function toTraceView(t: StoredTrace, spans: TimelineSpan[]): TraceView {
  return { ...toSummaryView(t), input: t.input, output: t.output, spans: spans.map(toSpanView) };
}

function toSpanView({ span: s, depth }: TimelineSpan): SpanView {
  return {
    id: s.id,
    parentId: s.parentId,
    name: s.name,
    kind: s.kind,
    status: s.status,
    statusMessage: s.statusMessage,
    startTime: iso(s.startTime),
    endTime: isoOrNull(s.endTime),
    durationMs: durationMs(s.startTime, s.endTime),
    depth,
    model: s.model,
    input: s.input,
    output: s.output,
    usage: s.usage,
    costUsd: s.costUsd,
    attributes: s.attributes,
    events: s.events?.map((e) => ({ ...e, time: iso(e.time) })) ?? null,
  };
}
