import type { CostSource, SpanEvent, SpanKind, SpanStatus, TraceStatus } from '@cinetrace/contracts';
import type { DroppedParts } from './trace-limits';

/** A span as stored: every field present, `null` where the client never said. */
export interface StoredSpan {
  id: string;
  parentId: string | null;
  name: string;
  kind: SpanKind;
  status: SpanStatus;
  statusMessage: string | null;
  startTime: number;
  endTime: number | null;
  model: string | null;
  input: unknown;
  output: unknown;
  usage: Record<string, number> | null;
  costUsd: number | null;
  /** Where costUsd came from: the client (`sent`) or the project's model prices (`computed`); null without a cost. */
  costSource: CostSource | null;
  attributes: Record<string, unknown> | null;
  events: SpanEvent[] | null;
}

/** A trace as stored, with the summary columns that lists read without touching spans. */
export interface StoredTrace {
  projectId: string;
  id: string;
  name: string | null;
  status: TraceStatus;
  /** False while the status is the default (running without endTime, else ok). */
  statusExplicit: boolean;
  startTime: number;
  /** False while startTime is derived: the earliest span, else when the trace first arrived. */
  startExplicit: boolean;
  endTime: number | null;
  input: unknown;
  output: unknown;
  metadata: Record<string, unknown>;
  tags: string[];
  userId: string | null;
  sessionId: string | null;
  spanCount: number;
  errorCount: number;
  usage: Record<string, number>;
  costUsd: number | null;
  /** How many spans carry a cost: costUsd is null while none does. */
  costSpans: number;
  /** Bytes of the spans' JSON, summed: what TraceLimits.maxSpanBytes bounds. */
  spanBytes: number;
  /** What merges left out to keep the trace within its limits (names listed up to 100 each); null if nothing. */
  dropped: DroppedParts | null;
  createdAt: number;
  updatedAt: number;
}
