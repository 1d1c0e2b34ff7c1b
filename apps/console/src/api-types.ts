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

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface RunCounts {
  total: number;
  pending: number;
  running: number;
  completed: number;
  failed: number;
  cancelled: number;
}

/** A scorer's summary over a run: nulls when no task of the run got a score from it. */
export interface ScoreSummary {
  mean: number | null;
  passRate: number | null;
}

export interface Run {
  id: string;
  benchmarkId: string;
  status: RunStatus;
  experiment: Record<string, unknown>;
  runner: { concurrency: number; maxAttempts: number; timeoutMs: number };
  datasetVersion: number;
  counts: RunCounts;
  scores: Record<string, ScoreSummary>;
  costUsd: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface Benchmark {
  id: string;
  projectId: string;
  name: string;
  description: string;
  datasetId: string;
  scorers: Array<{ name: string; type: string; config: Record<string, unknown> }>;
  target: { type: string } & Record<string, unknown>;
  runner: { concurrency: number; maxAttempts: number; timeoutMs: number };
  status: 'idle' | RunStatus;
  lastRun: Run | null;
  createdAt: string;
  updatedAt: string;
}

export interface TaskScore {
  scorer: string;
  score: number | null;
  passed: boolean | null;
  details: unknown;
  error: string | null;
}

export interface Task {
  id: string;
  runId: string;
  itemId: string;
  itemIndex: number;
  status: TaskStatus;
  attempts: number;
  output: unknown;
  scores: TaskScore[];
  error: string | null;
  usage: Usage | null;
  costUsd: number | null;
  traceId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
}

/** The tasks route's answer: a page of tasks plus the run's summary. */
export interface TaskPage extends Page<Task> {
  summary: { id: string; status: RunStatus; counts: RunCounts } | null;
}

export const PROMPT_TYPES = ['text-to-video', 'image-to-video', 'video-to-video', 'text-to-image', 'image-to-image', 'text-to-audio', 'text-to-text'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];

export interface Prompt {
  id: string;
  projectId: string;
  identifier: string;
  name: string;
  content: string;
  type: PromptType;
  labels: string[];
  metadata: Record<string, unknown>;
  variables: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface PromptVersion {
  promptId: string;
  version: number;
  name: string;
  content: string;
  labels: string[];
  metadata: Record<string, unknown>;
  variables: string[];
  createdAt: string;
}

export interface PromptActivity {
  id: string;
  promptId: string;
  action: 'created' | 'updated' | 'deleted';
  version: number;
  actor: { type?: string; id?: string };
  at: string;
  changes: Record<string, { from?: unknown; to?: unknown } | unknown>;
}

export interface Dataset {
  id: string;
  projectId: string;
  name: string;
  description: string;
  itemCount: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface DatasetItem {
  id: string;
  datasetId: string;
  index: number;
  input: unknown;
  expected: unknown;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export type KeyScope = 'admin' | 'read' | 'write' | 'ingest';

export interface ApiKey {
  id: string;
  name: string;
  scopes: KeyScope[];
  projectIds: string[] | null;
  prefix: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

/** The create answer: the only time the key itself is shown. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface Secret {
  id: string;
  name: string;
  allowedHosts: string[];
  createdAt: string;
  updatedAt: string;
}
