import { ApiAnyJson } from '../openapi/any-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { COST_SOURCES, type CostSource } from './model-prices';
import { ScoreView } from './scores';
import { SPAN_KINDS, SPAN_STATUSES, SpanKind, SpanStatus, TRACE_STATUSES, TraceStatus } from './trace.types';

/** What merges left out to keep a trace within its limits (see the API reference): at most 100 names per list. */
export class DroppedPartsView {
  @ApiProperty({ type: [String], description: 'Tags not added: the trace already had 50' }) tags: string[];
  @ApiProperty({ type: [String], description: 'Metadata keys not set: the merged metadata would pass 64 KiB' })
  metadataKeys: string[];
  @ApiProperty({ type: [String], description: 'Span ids not stored or not updated: the trace held its most spans or span bytes' })
  spanIds: string[];
}

/** The answer to an ingest: 202 describes the payload as accepted, 201 (`Prefer: wait`) the stored trace. */
export class TraceAcceptedView {
  @ApiProperty({ example: 'tr_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty({ enum: TRACE_STATUSES }) status: TraceStatus;
  @ApiProperty() spanCount: number;
  @ApiPropertyOptional({
    type: DroppedPartsView,
    description: 'With Prefer: wait (201), and only when the trace limits left part of this payload out: what they left out',
  })
  dropped?: DroppedPartsView;
}

export class BatchItemResult {
  @ApiProperty() index: number;
  @ApiProperty({ type: String, nullable: true }) id: string | null;
  @ApiProperty({ enum: ['accepted', 'rejected'] }) result: 'accepted' | 'rejected';
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) errors?: { path: string; message: string }[];
  @ApiPropertyOptional({ type: () => DroppedPartsView, description: 'With Prefer: wait, when the trace limits left part of this item out' })
  dropped?: DroppedPartsView;
}

export class TraceBatchView {
  @ApiProperty() accepted: number;
  @ApiProperty() rejected: number;
  @ApiProperty({ type: [BatchItemResult] }) items: BatchItemResult[];
}

/** Durations keep the microseconds the times were sent with; the ISO times are written to the millisecond. */
const DURATION = 'endTime - startTime in milliseconds, to the microsecond (up to three decimals); null while there is no endTime';

/** What a trace's list item and its GET share; each adds its own `scores`. */
export class TraceFieldsView {
  @ApiProperty() id: string;
  @ApiProperty() projectId: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ enum: TRACE_STATUSES }) status: TraceStatus;
  @ApiProperty({ format: 'date-time' }) startTime: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) endTime: string | null;
  @ApiProperty({ type: Number, nullable: true, description: DURATION }) durationMs: number | null;
  @ApiProperty() spanCount: number;
  @ApiProperty() errorCount: number;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) sessionId: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description:
      "Each key summed over the spans that carry it, but a span one of whose descendants carries the key too (a parent repeating its children's figures) is not counted for it",
  })
  usage: Record<string, number>;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Summed over the spans with a cost, as usage is: a span with a descendant that has a cost is not counted; null when no span has one',
  })
  costUsd: number | null;
  @ApiProperty({ type: DroppedPartsView, nullable: true, description: 'What merges left out to keep the trace within its limits; null when nothing' })
  dropped: DroppedPartsView | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class TraceSummaryView extends TraceFieldsView {
  @ApiProperty({
    type: 'object',
    additionalProperties: { anyOf: [{ type: 'number' }, { type: 'string' }] },
    description:
      'The latest score of each name on the trace or its spans (by createdAt, then id): its number, or its stringValue for a categorical or boolean score (`true`, `false`)',
    example: { quality: 0.82, verdict: 'good' },
  })
  scores: Record<string, number | string>;
}

export class SpanEventView {
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) time: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) attributes?: Record<string, unknown>;
}

export class SpanView {
  @ApiProperty() id: string;
  @ApiProperty({ type: String, nullable: true }) parentId: string | null;
  @ApiProperty() name: string;
  @ApiProperty({ enum: SPAN_KINDS }) kind: SpanKind;
  @ApiProperty({ enum: SPAN_STATUSES }) status: SpanStatus;
  @ApiProperty({ type: String, nullable: true }) statusMessage: string | null;
  @ApiProperty({ format: 'date-time' }) startTime: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) endTime: string | null;
  @ApiProperty({ type: Number, nullable: true, description: DURATION }) durationMs: number | null;
  @ApiProperty({ description: '0 for a root span, parent depth + 1 below it' }) depth: number;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiAnyJson() input: unknown;
  @ApiAnyJson() output: unknown;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'number' } }) usage: Record<string, number> | null;
  @ApiProperty({ type: Number, nullable: true }) costUsd: number | null;
  @ApiProperty({
    type: String,
    enum: COST_SOURCES,
    nullable: true,
    description: "`sent`: the client's; `computed`: from the project's model prices at ingest; null: no cost",
  })
  costSource: CostSource | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true }) attributes: Record<string, unknown> | null;
  @ApiProperty({ type: [SpanEventView], nullable: true }) events: SpanEventView[] | null;
}

export class TraceView extends TraceFieldsView {
  @ApiProperty({ type: [ScoreView], description: 'Every score of the trace and its spans (spanId null: the whole trace), oldest first' })
  scores: ScoreView[];
  @ApiAnyJson() input: unknown;
  @ApiAnyJson() output: unknown;
  @ApiProperty({ type: [SpanView], description: 'Ordered by startTime, then id' }) spans: SpanView[];
}
