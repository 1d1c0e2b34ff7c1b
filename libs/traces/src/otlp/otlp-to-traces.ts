import { SpanKind } from '@cinetrace/contracts';
import { MAX_SPANS_PER_TRACE } from '../trace.schema';
import { METADATA_MAX_BYTES } from '../validate-trace';
import { CINETRACE_VIDEO_PREFIX, CinetraceVideo, GenAi, OpenInference, OtelExtras } from './otlp-conventions';
import { OtlpValueError, keyValuesToObject, spanIdHex, traceIdHex, unixNanosToMs } from './otlp-values';

/**
 * A trace as a client would POST it to /api/v1/traces (the raw JSON shape, times as epoch
 * milliseconds), built from OTLP spans: it goes through the same validation, limits and
 * stream as that route, so OTLP cannot store what the JSON API would refuse.
 */
export interface OtlpTracePayload {
  /** The body for validateTrace: `{ id, spans, name?, startTime?, endTime?, status? }`. */
  trace: Record<string, unknown> & { id: string; spans: Array<Record<string, unknown>> };
}

export interface OtlpMapping {
  payloads: OtlpTracePayload[];
  /** Spans refused while mapping (before validation), each with why. */
  rejected: Array<{ traceId?: string; spanId?: string; message: string }>;
}

/** OpenTelemetry's SpanKind enum (trace.proto), as the names kept in `attributes`. */
const OTEL_SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const OTEL_STATUS = { 1: 'ok', 2: 'error' } as const;

const OPENINFERENCE_KINDS: Record<string, SpanKind> = {
  LLM: 'llm',
  EMBEDDING: 'embedding',
  RETRIEVER: 'retrieval',
  RERANKER: 'retrieval',
  TOOL: 'tool',
  AGENT: 'agent',
  EVALUATOR: 'scorer',
  CHAIN: 'span',
  GUARDRAIL: 'span',
};

const GEN_AI_OPERATION_KINDS: Record<string, SpanKind> = {
  embeddings: 'embedding',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
};

/**
 * Attributes whose value becomes the span's input or output. They stay in `attributes` too
 * (API.md: every original attribute is kept), unless that would take `attributes` past its
 * 64 KiB: then each keeps a note of where its value went (input and output hold 1 MiB each).
 */
export const PAYLOAD_SOURCES = {
  input: [GenAi.InputMessages, GenAi.Prompt, OpenInference.InputValue],
  output: [GenAi.OutputMessages, GenAi.Completion, OpenInference.OutputValue],
} as const satisfies Record<'input' | 'output', readonly string[]>;
const OUTPUT_ATTRIBUTES = new Set<string>(PAYLOAD_SOURCES.output);
const PAYLOAD_ATTRIBUTES = new Set<string>([...PAYLOAD_SOURCES.input, ...OUTPUT_ATTRIBUTES]);

/** The attribute a span's input (or output) is taken from: the first of its sources that holds a value. */
export function payloadSource(attributes: Record<string, unknown>, column: keyof typeof PAYLOAD_SOURCES): string | undefined {
  for (const key of PAYLOAD_SOURCES[column]) if (attributes[key] !== undefined && attributes[key] !== null) return key;
  return undefined;
}

/** That attribute's value; when none holds one, the last source's (null or undefined), as `a ?? b ?? c` would give. */
function payloadAttribute(attributes: Record<string, unknown>, column: keyof typeof PAYLOAD_SOURCES): unknown {
  const sources = PAYLOAD_SOURCES[column];
  return attributes[payloadSource(attributes, column) ?? sources[sources.length - 1]];
}

/**
 * Maps an ExportTraceServiceRequest (OTLP/JSON shape, ids as hex) to trace payloads, one
 * per OTel trace id (split in pieces of MAX_SPANS_PER_TRACE spans). A span that cannot be
 * read is refused on its own; the rest of the request still maps. Throws OtlpValueError
 * only when the request itself is not an export request.
 */
export function otlpToTraces(request: unknown): OtlpMapping {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new OtlpValueError('the body is not an ExportTraceServiceRequest');
  const resourceSpans = (request as { resourceSpans?: unknown }).resourceSpans ?? [];
  if (!Array.isArray(resourceSpans)) throw new OtlpValueError('resourceSpans must be an array');
  const byTrace = new Map<string, Array<Record<string, unknown>>>();
  const rejected: OtlpMapping['rejected'] = [];

  for (const rs of resourceSpans) {
    const scopeSpans = (rs as { scopeSpans?: unknown } | null)?.scopeSpans ?? [];
    let resource: Record<string, unknown> | undefined;
    try {
      const attributes = keyValuesToObject((rs as { resource?: { attributes?: unknown } }).resource?.attributes);
      resource = Object.keys(attributes).length ? attributes : undefined;
      if (!Array.isArray(scopeSpans)) throw new OtlpValueError('scopeSpans must be an array');
    } catch (err) {
      rejectAll(scopeSpans, message(err), rejected);
      continue;
    }
    for (const ss of scopeSpans) {
      const spans = (ss as { spans?: unknown } | null)?.spans ?? [];
      let scope: Record<string, unknown> | undefined;
      try {
        scope = scopeOf((ss as { scope?: unknown }).scope);
        if (!Array.isArray(spans)) throw new OtlpValueError('spans must be an array');
      } catch (err) {
        rejectAll([{ spans }], message(err), rejected);
        continue;
      }
      for (const raw of spans) {
        try {
          const { traceId, span } = toSpan(raw, resource, scope);
          const list = byTrace.get(traceId) ?? [];
          list.push(span);
          byTrace.set(traceId, list);
        } catch (err) {
          const r = raw as { traceId?: unknown; spanId?: unknown } | null;
          rejected.push({ traceId: str(r?.traceId), spanId: str(r?.spanId), message: message(err) });
        }
      }
    }
  }

  const payloads: OtlpTracePayload[] = [];
  for (const [id, spans] of byTrace) {
    for (let at = 0; at < spans.length; at += MAX_SPANS_PER_TRACE) {
      payloads.push({ trace: withRootFields({ id, spans: spans.slice(at, at + MAX_SPANS_PER_TRACE) }) });
    }
  }
  return { payloads, rejected };
}

function toSpan(raw: unknown, resource: Record<string, unknown> | undefined, scope: Record<string, unknown> | undefined) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new OtlpValueError('a span must be an object');
  const s = raw as Record<string, unknown>;
  const traceId = traceIdHex(s.traceId);
  if (!traceId) throw new OtlpValueError('traceId must be 16 bytes (32 hex digits), not all zero');
  const id = spanIdHex(s.spanId);
  if (!id) throw new OtlpValueError('spanId must be 8 bytes (16 hex digits), not all zero');
  const hasParent = s.parentSpanId !== undefined && s.parentSpanId !== null && s.parentSpanId !== '';
  const parentId = hasParent ? spanIdHex(s.parentSpanId) : undefined;
  if (hasParent && !parentId) throw new OtlpValueError('parentSpanId must be 8 bytes (16 hex digits) or empty');
  const startTime = unixNanosToMs(s.startTimeUnixNano, 'startTimeUnixNano');
  if (startTime === undefined) throw new OtlpValueError('startTimeUnixNano is required');
  const endTime = unixNanosToMs(s.endTimeUnixNano, 'endTimeUnixNano');

  const own = keyValuesToObject(s.attributes);
  const span: Record<string, unknown> = { id, parentId: parentId ?? null, name: s.name, startTime };
  if (endTime !== undefined) span.endTime = endTime;
  const status = s.status as { code?: unknown; message?: unknown } | null | undefined;
  const statusCode = Number(status?.code ?? 0);
  if (statusCode === 1 || statusCode === 2) span.status = OTEL_STATUS[statusCode];
  if (typeof status?.message === 'string' && status.message !== '') span.statusMessage = status.message;

  const semantic = semanticFields(own);
  Object.assign(span, semantic);

  // The span's own attributes, then what OTLP says beside them (`own` is this span's own object, and has no __proto__ key).
  const attributes: Record<string, unknown> = own;
  const kind = OTEL_SPAN_KINDS[Number(s.kind ?? 0)];
  if (kind && kind !== 'UNSPECIFIED') attributes[OtelExtras.SpanKind] = kind;
  if (resource) attributes[OtelExtras.Resource] = resource;
  if (scope) attributes[OtelExtras.Scope] = scope;
  if (typeof s.traceState === 'string' && s.traceState !== '') attributes[OtelExtras.TraceState] = s.traceState;
  const links = s.links ?? [];
  if (!Array.isArray(links)) throw new OtlpValueError('links must be an array');
  if (links.length) attributes[OtelExtras.Links] = links.map(toLink);
  if (payloadChars(own) >= PAYLOAD_CHARS_WORTH_MEASURING && jsonBytes(attributes) > METADATA_MAX_BYTES) {
    for (const key of Object.keys(own)) if (PAYLOAD_ATTRIBUTES.has(key)) attributes[key] = movedNote(key);
  }
  if (Object.keys(attributes).length) span.attributes = attributes;

  const events = s.events ?? [];
  if (!Array.isArray(events)) throw new OtlpValueError('events must be an array');
  if (events.length) span.events = events.map(toEvent);
  return { traceId, span };
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Below this many characters of payload attributes, attributes are not measured (a
 * JSON.stringify per span is dear on the mapping's hot path): replacing so little could
 * only rescue a span within 8 KiB of the limit, which validation then refuses as it would any.
 */
const PAYLOAD_CHARS_WORTH_MEASURING = 8 * 1024;

function payloadChars(own: Record<string, unknown>): number {
  let chars = 0;
  for (const key of PAYLOAD_ATTRIBUTES) {
    const value = own[key];
    if (typeof value === 'string') chars += value.length;
    else if (value !== undefined) chars += PAYLOAD_CHARS_WORTH_MEASURING; // structured: measure it
  }
  return chars;
}

/** What a payload attribute says in `attributes` when its value only fits in the span's input or output. */
export const movedNote = (key: string) => `(moved to the span's ${OUTPUT_ATTRIBUTES.has(key) ? 'output' : 'input'}: attributes hold 64 KiB)`;

/** kind, model, usage, input and output from GenAI, OpenInference and cinetrace.video attributes. */
function semanticFields(a: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const kind = kindOf(a);
  if (kind) fields.kind = kind;
  const model = firstString(a[GenAi.ResponseModel], a[GenAi.RequestModel], a[OpenInference.ModelName]);
  if (model !== undefined) fields.model = model;

  const usage: Record<string, unknown> = {};
  setNumber(usage, 'inputTokens', a[GenAi.InputTokens] ?? a[OpenInference.PromptTokens]);
  setNumber(usage, 'outputTokens', a[GenAi.OutputTokens] ?? a[OpenInference.CompletionTokens]);
  setNumber(usage, 'totalTokens', a[OpenInference.TotalTokens]);
  setNumber(usage, 'videoSeconds', a[CinetraceVideo.DurationSeconds]);
  setNumber(usage, 'frames', a[CinetraceVideo.FrameCount]);
  if (Object.keys(usage).length) fields.usage = usage;

  const input = payloadAttribute(a, 'input');
  if (input !== undefined) fields.input = payloadValue(input, a[OpenInference.InputMimeType]);
  const output = payloadAttribute(a, 'output');
  const video = videoAsset(a);
  // A generated video is the span's output (the console plays it); a text output beside it stays readable in `textOutput`.
  if (video) fields.output = output === undefined ? video : { ...video, textOutput: payloadValue(output, a[OpenInference.OutputMimeType]) };
  else if (output !== undefined) fields.output = payloadValue(output, a[OpenInference.OutputMimeType]);
  return fields;
}

function kindOf(a: Record<string, unknown>): SpanKind | undefined {
  const openInference = a[OpenInference.SpanKind];
  if (typeof openInference === 'string' && OPENINFERENCE_KINDS[openInference.toUpperCase()]) return OPENINFERENCE_KINDS[openInference.toUpperCase()];
  const operation = a[GenAi.OperationName];
  if (typeof operation === 'string') return GEN_AI_OPERATION_KINDS[operation] ?? 'generation';
  if (a[GenAi.ProviderName] !== undefined || a[GenAi.System] !== undefined || a[GenAi.RequestModel] !== undefined) return 'generation';
  if (Object.keys(a).some((key) => key.startsWith(CINETRACE_VIDEO_PREFIX))) return 'generation';
  return undefined;
}

/** Whether a span's output is a generated video (videoAsset), made of several attributes rather than one. */
export const hasVideoOutput = (a: Record<string, unknown>): boolean => typeof a[CinetraceVideo.OutputUrl] === 'string';

/** The output asset of a video generation, in the media shape API.md names: `{ url, contentType, … }`. */
function videoAsset(a: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!hasVideoOutput(a)) return undefined;
  const asset: Record<string, unknown> = { url: a[CinetraceVideo.OutputUrl] };
  const contentType = a[CinetraceVideo.OutputContentType];
  if (typeof contentType === 'string') asset.contentType = contentType;
  const described: Array<[string, unknown]> = [
    ['width', a[CinetraceVideo.Width]],
    ['height', a[CinetraceVideo.Height]],
    ['fps', a[CinetraceVideo.Fps]],
    ['durationSeconds', a[CinetraceVideo.DurationSeconds]],
    ['frameCount', a[CinetraceVideo.FrameCount]],
    ['seed', a[CinetraceVideo.Seed]],
  ];
  for (const [name, value] of described) if (typeof value === 'number') asset[name] = value;
  return asset;
}

/** JSON-looking payloads (GenAI messages are JSON strings; OpenInference says so by mime type) are kept as JSON. */
function payloadValue(value: unknown, mimeType: unknown): unknown {
  if (typeof value !== 'string') return value;
  const looksJson = mimeType === 'application/json' || /^\s*[[{]/.test(value);
  if (!looksJson) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Trace fields taken from a root span. */
export const ROOT_TRACE_FIELDS = ['name', 'startTime', 'endTime', 'status'] as const;
const ROOT_FIELD_SET = new Set<string>(ROOT_TRACE_FIELDS);

/**
 * The payload with its trace fields taken from its first root span (no parent), if it has
 * one: the root, once it arrives, names and times the trace and says how it ended.
 * Without one the trace keeps what it has. Call again after spans were taken out.
 */
export function withRootFields(trace: OtlpTracePayload['trace']): OtlpTracePayload['trace'] {
  // Copied without the root's fields rather than deleted from a copy: `delete` would leave validation a slow dictionary object.
  const payload: OtlpTracePayload['trace'] = { id: trace.id, spans: trace.spans };
  for (const key of Object.keys(trace)) if (!ROOT_FIELD_SET.has(key)) payload[key] = trace[key];
  const root = payload.spans.find((span) => span.parentId === null);
  if (!root) return payload;
  Object.assign(payload, { name: root.name, startTime: root.startTime });
  if (root.endTime !== undefined) Object.assign(payload, { endTime: root.endTime, status: root.status === 'error' ? 'error' : 'ok' });
  return payload;
}

function toEvent(raw: unknown): Record<string, unknown> {
  const e = (raw ?? {}) as Record<string, unknown>;
  const time = unixNanosToMs(e.timeUnixNano, 'events[].timeUnixNano');
  const event: Record<string, unknown> = { name: e.name, time: time ?? 0 };
  const attributes = keyValuesToObject(e.attributes);
  if (Object.keys(attributes).length) event.attributes = attributes;
  return event;
}

function toLink(raw: unknown): Record<string, unknown> {
  const l = (raw ?? {}) as Record<string, unknown>;
  const link: Record<string, unknown> = { traceId: traceIdHex(l.traceId) ?? null, spanId: spanIdHex(l.spanId) ?? null };
  const attributes = keyValuesToObject(l.attributes);
  if (Object.keys(attributes).length) link.attributes = attributes;
  if (typeof l.traceState === 'string' && l.traceState !== '') link.traceState = l.traceState;
  return link;
}

function scopeOf(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  const s = raw as Record<string, unknown>;
  const scope: Record<string, unknown> = {};
  if (typeof s.name === 'string' && s.name !== '') scope.name = s.name;
  if (typeof s.version === 'string' && s.version !== '') scope.version = s.version;
  const attributes = keyValuesToObject(s.attributes);
  if (Object.keys(attributes).length) scope.attributes = attributes;
  return Object.keys(scope).length ? scope : undefined;
}

function setNumber(target: Record<string, unknown>, name: string, value: unknown): void {
  if (typeof value === 'number') target[name] = value;
  else if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) target[name] = Number(value);
  else if (value !== undefined) target[name] = value; // validation names it (usage values are numbers)
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === 'string' && v !== '');
}

function rejectAll(scopeSpans: unknown, why: string, rejected: OtlpMapping['rejected']): void {
  if (!Array.isArray(scopeSpans)) return;
  for (const ss of scopeSpans) {
    const spans = (ss as { spans?: unknown } | null)?.spans;
    if (Array.isArray(spans)) for (const _ of spans) rejected.push({ message: why });
  }
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const message = (err: unknown) => (err instanceof OtlpValueError ? err.message : err instanceof RangeError ? 'a value nests too deep' : 'the span could not be read');
