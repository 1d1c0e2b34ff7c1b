import type { TraceMediaAttachment } from '../media/trace-media.messages';
import type { CostSource } from './model-prices';
import type { StreamScore } from './scores';

/**
 * Traces as they travel from the gateway to trace-ingest: validated, ids assigned,
 * times as epoch milliseconds. Only the fields the client sent are present, so a merge
 * can tell "absent" (keep what is stored) from "present" (replace).
 */
export const TRACE_STATUSES = ['running', 'ok', 'error'] as const;
export type TraceStatus = (typeof TRACE_STATUSES)[number];

export const SPAN_KINDS = ['span', 'generation', 'llm', 'tool', 'retrieval', 'embedding', 'agent', 'scorer'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

/** Span status: `unset` until the client says `ok` or `error` (OpenTelemetry's convention). */
export const SPAN_STATUSES = ['unset', 'ok', 'error'] as const;
export type SpanStatus = (typeof SPAN_STATUSES)[number];

export interface SpanEvent {
  name: string;
  time: number;
  attributes?: Record<string, unknown>;
}

export interface SpanInput {
  id: string;
  parentId?: string | null;
  name?: string;
  kind?: SpanKind;
  status?: SpanStatus;
  statusMessage?: string | null;
  startTime?: number;
  endTime?: number | null;
  model?: string | null;
  input?: unknown;
  output?: unknown;
  usage?: Record<string, number>;
  costUsd?: number | null;
  /** Set by trace-ingest as it prices the span (the trace schema refuses it from a client). */
  costSource?: CostSource | null;
  attributes?: Record<string, unknown>;
  events?: SpanEvent[];
}

export interface TraceInput {
  id: string;
  name?: string | null;
  status?: TraceStatus;
  startTime?: number;
  endTime?: number | null;
  input?: unknown;
  output?: unknown;
  metadata?: Record<string, unknown>;
  tags?: string[];
  userId?: string | null;
  sessionId?: string | null;
  spans: SpanInput[];
}

/** One message of the trace stream (topic `trace.ingest`, keyed by project and trace id). */
export interface TraceIngestMessage {
  ingestId: string;
  projectId: string;
  receivedAt: number;
  trace: TraceInput;
  /**
   * false when nobody will ask whether this message is stored (no `Prefer: wait`, a benchmark
   * task's trace): trace-ingest then writes no receipt for it. Absent (a sender from before
   * this field): a receipt is written.
   */
  receipt?: false;
  /**
   * Span inputs and outputs the gateway left out because an attribute of the span holds them
   * (an OTLP span's input is its `input.value`): [span id, the field, the attribute's key,
   * `text` (the field is the attribute's string) or `json` (the field is that string parsed as
   * JSON)]. trace-ingest puts each field back before it merges. With a fifth item `trace`, the
   * field left out is the trace's own, which is that span's (an OTLP trace's input is its root span's).
   */
  payloadCopies?: Array<[spanId: string, column: 'input' | 'output', key: string, form: 'text' | 'json', of?: 'trace']>;
  /**
   * `protobuf`: the trace crosses the stream as the OTLP export request it came in (the
   * record's bytes, one trace and nothing refused in it), and `trace` is `{ id, spans: [] }`
   * until trace-ingest maps and validates those bytes as the gateway did. Spares the gateway
   * serializing the mapped trace, half again as large as the export (every attribute kept).
   */
  otlp?: 'protobuf';
  /**
   * What gateways before payloadCopies sent instead, still read so that records they left in the
   * stream store whole: attributes left out because they repeat the span's input or output,
   * [span id, attribute key, the field it repeats], each holding 0 in its place.
   */
  attributeCopies?: Array<[spanId: string, key: string, column: 'input' | 'output']>;
  /**
   * Set by media-service, with `trace` `{ id, spans: [] }`: the media it copied for outputs of
   * this stored trace, applied to the trace as it stands when the record is stored (on the
   * trace's partition, so in order with the client's own writes of it).
   */
  media?: TraceMediaAttachment[];
  /**
   * Scores of this trace (a benchmark task's scorer results), stored with it in the same
   * transaction, beside it in trace-ingest; they need not come with spans.
   */
  scores?: StreamScore[];
}
