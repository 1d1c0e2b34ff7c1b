import { Api, ApiResponse, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListPage, Problem, Schema } from './api-types';

export const TRACES = '/api/v1/traces';
export const BATCH = '/api/v1/traces/batch';

/** RFC 7240: the client wants to read its own write, so the answer waits until it is stored. */
export const WAIT = { Prefer: 'wait' };

/**
 * Per-test budget for the trace suites. jest's default is 5 s (the e2e project's
 * testTimeout in jest.config.js does not reach the tests), less than one poll for a
 * trace accepted with 202 may take; the spec files pass this to jest.setTimeout.
 */
export const TRACE_TEST_TIMEOUT_MS = 60_000;

/** How long a trace accepted with 202 may take to become readable before a test gives up. */
export const VISIBLE_WITHIN_MS = 15_000;

/** A fixed point to lay traces out on; each test works in its own project, so times never collide. */
export const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/** `T0 + offsetMs` as the API writes times: ISO-8601 UTC with milliseconds. */
export const at = (offsetMs = 0): string => new Date(T0 + offsetMs).toISOString();

/** Client-chosen trace or span id: unique, and only of the allowed characters. */
export const anId = (prefix = 'tr'): string => unique(prefix).replace(/[^A-Za-z0-9._:-]/g, '-');

/** A JSON object as the tests build them (what the API answers is read through ./api-types). */
export type Json = Record<string, unknown>;

/** A time as a client may send it: ISO-8601, or epoch milliseconds. */
export type TimeInput = string | number;

/** A span as the tests send it: what the builders fill in, and whatever a test adds. */
export interface SentSpan {
  id: string;
  name: string;
  startTime: TimeInput;
  endTime?: TimeInput | null;
  events?: Array<{ time: TimeInput; [field: string]: unknown }>;
  [field: string]: unknown;
}

/** A trace as the tests send it (aTrace). */
export interface SentTrace {
  id: string;
  name?: string;
  startTime: TimeInput;
  spans: SentSpan[];
  [field: string]: unknown;
}

export type TraceView = Schema<'TraceView'>;

/** A valid span with a name and a start time; fields can be overridden or added. */
export function aSpan(overrides: Json = {}): SentSpan {
  return { id: anId('sp'), name: unique('span'), startTime: at(0), ...overrides };
}

/** A time input (ISO string or epoch ms) as epoch ms. */
export const toMs = (time: string | number): number => (typeof time === 'number' ? time : Date.parse(time));

/** A time input (ISO string or epoch ms) as the API writes it back. */
export const toIso = (time: string | number): string => new Date(toMs(time)).toISOString();

/**
 * A valid trace with a client-chosen id and three spans laid out from its startTime (a
 * root and two children, ids `<trace id>.root`, `.a`, `.b`); fields can be overridden or
 * added (`spans` replaces them all).
 */
export function aTrace(overrides: Json = {}): SentTrace {
  const id = typeof overrides.id === 'string' ? overrides.id : anId('tr');
  const base = overrides.startTime === undefined ? T0 : toMs(overrides.startTime as TimeInput);
  const t = (offset: number) => new Date(base + offset).toISOString();
  const root = `${id}.root`;
  return {
    id,
    name: unique('render'),
    startTime: t(0),
    spans: [
      { id: root, name: 'pipeline', kind: 'agent', startTime: t(0), endTime: t(900) },
      { id: `${id}.a`, parentId: root, name: 'storyboard', kind: 'generation', startTime: t(100), endTime: t(400) },
      { id: `${id}.b`, parentId: root, name: 'upscale', kind: 'tool', startTime: t(400), endTime: t(800) },
    ],
    ...overrides,
  };
}

/** A span as GET must show it, from what was sent: defaults and nulls filled, times as ISO. */
export function expectedSpan(sent: SentSpan, depth: number): Json {
  const end = sent.endTime ?? null;
  return {
    id: sent.id,
    parentId: sent.parentId ?? null,
    name: sent.name,
    kind: sent.kind ?? 'span',
    status: sent.status ?? 'unset',
    statusMessage: sent.statusMessage ?? null,
    startTime: toIso(sent.startTime),
    endTime: end === null ? null : toIso(end),
    durationMs: end === null ? null : toMs(end) - toMs(sent.startTime),
    depth,
    model: sent.model ?? null,
    input: sent.input ?? null,
    output: sent.output ?? null,
    usage: sent.usage ?? null,
    costUsd: sent.costUsd ?? null,
    // A sent cost is the client's; these spans name no priced model, so none is computed.
    costSource: typeof sent.costUsd === 'number' ? 'sent' : null,
    attributes: sent.attributes ?? null,
    events: sent.events ? sent.events.map((e) => ({ ...e, time: toIso(e.time) })) : null,
  };
}

export interface IngestOptions {
  /** Send `Prefer: wait` and expect 201 (the trace is readable once this returns). */
  wait?: boolean;
  headers?: Record<string, string>;
}

/**
 * POSTs one trace and fails loudly unless it is accepted: 202, or 201 with `wait`.
 * Returns the answer's body `{ id, status, spanCount }`.
 */
export async function ingest(api: Api, trace: unknown, options: IngestOptions = {}): Promise<Schema<'TraceAcceptedView'>> {
  const headers = { ...(options.wait ? WAIT : {}), ...options.headers };
  const response = await api.post<Schema<'TraceAcceptedView'>>(TRACES, trace, { headers });
  const expected = options.wait ? 201 : 202;
  if (response.status !== expected) {
    throw new Error(`trace ingest answered ${response.status} (expected ${expected}): ${response.text}`);
  }
  return response.body;
}

/** Ingests each trace with `Prefer: wait`, one after the other; returns their ids. */
export async function ingestAll(api: Api, traces: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (const trace of traces) ids.push((await ingest(api, trace, { wait: true })).id);
  return ids;
}

/**
 * Calls `probe` until it gives something other than `undefined`, and returns that; fails
 * with `what` and the last thing seen when `timeoutMs` passes first.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = VISIBLE_WITHIN_MS, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = 'nothing yet';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${String(last)})`);
    await sleep(intervalMs);
  }
}

/** GET /api/v1/traces/{id}. */
export const getTrace = (api: Api, id: string): Promise<ApiResponse<TraceView>> => api.get<TraceView>(`${TRACES}/${encodeURIComponent(id)}`);

/**
 * Polls GET until the trace answers 200 and `ready` holds for it (default: it exists),
 * then returns it. For reads after a 202 without `Prefer: wait`.
 */
export async function readEventually(api: Api, id: string, ready: (trace: TraceView) => boolean = () => true, timeoutMs = VISIBLE_WITHIN_MS): Promise<TraceView> {
  return eventually(
    `trace ${id} readable`,
    async () => {
      const response = await getTrace(api, id);
      const seen = `GET answered ${response.status} ${response.text.slice(0, 300)}`;
      if (response.status !== 200) throw new Error(seen);
      if (!ready(response.body)) throw new Error(`not yet as expected: ${seen}`);
      return response.body;
    },
    timeoutMs,
  );
}

/** GET the trace now (after `Prefer: wait`), failing loudly unless it answers 200. */
export async function readNow(api: Api, id: string): Promise<TraceView> {
  const response = await getTrace(api, id);
  if (response.status !== 200) throw new Error(`GET trace ${id} answered ${response.status}: ${response.text}`);
  return response.body;
}

/**
 * What a list item must be: the trace as GET shows it, without input, output and spans, and
 * with the latest value of each score name (a label over a number) instead of its scores.
 */
export function summaryOf(trace: TraceView): Schema<'TraceSummaryView'> {
  const { input: _input, output: _output, spans: _spans, scores, ...summary } = trace;
  const latest: Record<string, number | string> = {};
  // GET lists them oldest first (createdAt, then id): the last of each name stays.
  for (const score of scores) latest[score.name] = score.stringValue ?? score.value!;
  return { ...summary, scores: latest };
}

/** GET /api/v1/traces with `query`, failing loudly unless it answers 200; gives the ids in order. */
export async function listIds(api: Api, query: Record<string, string | number | boolean | undefined> = {}): Promise<string[]> {
  const response = await api.get<ListPage<Schema<'TraceSummaryView'>>>(TRACES, query);
  if (response.status !== 200) throw new Error(`GET ${TRACES} ${JSON.stringify(query)} answered ${response.status}: ${response.text}`);
  return response.body.data.map((item) => item.id);
}

/** `{ args: '<json>' }` for a list query. */
export const args = (filters: Json): { args: string } => ({ args: JSON.stringify(filters) });

/** The error paths of a problem answer (empty when it names none). */
export const errorPaths = (response: ApiResponse): string[] => {
  const errors = (response.body as Partial<Problem> | undefined)?.errors;
  return Array.isArray(errors) ? errors.map((e) => e.path) : [];
};
