// The shapes of the public API the console reads (see API.md). Kept apart from the
// fetch calls so a client generated from the OpenAPI document can replace both.

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface Project {
  id: string;
  name: string;
  description: string;
  key: string;
  createdAt: string;
  updatedAt: string;
}

export type TraceStatus = 'running' | 'ok' | 'error';
export type SpanStatus = 'unset' | 'ok' | 'error';
export type Usage = Record<string, number>;

export interface TraceSummary {
  id: string;
  projectId: string;
  name: string | null;
  status: TraceStatus;
  startTime: string;
  endTime: string | null;
  durationMs: number | null;
  spanCount: number;
  errorCount: number;
  tags: string[];
  metadata: Record<string, unknown>;
  userId: string | null;
  sessionId: string | null;
  usage: Usage | null;
  costUsd: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface SpanEvent {
  name: string;
  time: string;
  attributes?: Record<string, unknown> | null;
}

export interface Span {
  id: string;
  parentId: string | null;
  name: string;
  kind: string;
  status: SpanStatus;
  statusMessage?: string | null;
  startTime: string;
  endTime: string | null;
  durationMs: number | null;
  depth?: number;
  model?: string | null;
  input?: unknown;
  output?: unknown;
  usage?: Usage | null;
  costUsd?: number | null;
  attributes?: Record<string, unknown> | null;
  events?: SpanEvent[] | null;
}

export interface Trace extends TraceSummary {
  input?: unknown;
  output?: unknown;
  spans: Span[];
}

/** An RFC 9457 problem as the API answers it. */
export interface Problem {
  status: number;
  title?: string;
  code?: string;
  detail?: string;
  requestId?: string;
}
