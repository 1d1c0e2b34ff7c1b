import { MAX_SPANS_PER_TRACE } from '../trace.schema';
import { METADATA_MAX_BYTES } from '../validate-trace';
import { GenAi, OtelExtras } from './otlp-conventions';
import { joinsSystemInstructions, movedNote, payloadSource, semanticFields } from './otlp-span-semantics';
import { SPAN_TRACE_FIELDS, traceFieldsOfSpans } from './otlp-trace-fields';
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

  const events = s.events ?? [];
  if (!Array.isArray(events)) throw new OtlpValueError('events must be an array');
  const mappedEvents = events.length ? events.map(toEvent) : undefined;
  Object.assign(span, semanticFields(own, mappedEvents));

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
    // Only the attributes the input and output were taken from: the others hold what nothing else does.
    for (const column of ['input', 'output'] as const) {
      const key = payloadSource(own, column);
      if (key !== undefined && span[column] !== undefined) attributes[key] = movedNote(key);
    }
    if (joinsSystemInstructions(own, span.input)) attributes[GenAi.SystemInstructions] = movedNote(GenAi.SystemInstructions);
  }
  if (Object.keys(attributes).length) span.attributes = attributes;
  if (mappedEvents) span.events = mappedEvents;
  return { traceId, span };
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Below this many characters of payload attributes, attributes are not measured (a
 * JSON.stringify per span is dear on the mapping's hot path): replacing so little could
 * only rescue a span within 8 KiB of the limit, which validation then refuses as it would any.
 */
const PAYLOAD_CHARS_WORTH_MEASURING = 8 * 1024;

/** The characters of the attributes a span's input and output were taken from, system instructions included (a structured one: enough to be measured). */
function payloadChars(own: Record<string, unknown>): number {
  let chars = 0;
  for (const column of ['input', 'output'] as const) {
    const key = payloadSource(own, column);
    const value = key === undefined ? undefined : own[key];
    if (typeof value === 'string') chars += value.length;
    else if (value !== undefined) chars += PAYLOAD_CHARS_WORTH_MEASURING;
  }
  const instructions = own[GenAi.SystemInstructions];
  if (typeof instructions === 'string') chars += instructions.length;
  return chars;
}

/** Trace fields the mapping takes from the spans: from the root span, and (SPAN_TRACE_FIELDS) from any span. */
export const ROOT_TRACE_FIELDS = ['name', 'startTime', 'endTime', 'status', ...SPAN_TRACE_FIELDS] as const;
const ROOT_FIELD_SET = new Set<string>(ROOT_TRACE_FIELDS);

/**
 * The payload with its trace fields taken from its spans: its first root span (no parent),
 * once it arrives, names and times the trace, says how it ended and gives the trace its
 * input and output; the user, session, tags and metadata come from the root or any other
 * span (traceFieldsOfSpans). A field no span gives is left out, so the stored trace keeps
 * what it has. Call again after spans were taken out.
 */
export function withRootFields(trace: OtlpTracePayload['trace']): OtlpTracePayload['trace'] {
  // Copied without the derived fields rather than deleted from a copy: `delete` would leave validation a slow dictionary object.
  const payload: OtlpTracePayload['trace'] = { id: trace.id, spans: trace.spans };
  for (const key of Object.keys(trace)) if (!ROOT_FIELD_SET.has(key)) payload[key] = trace[key];
  const root = payload.spans.find((span) => span.parentId === null);
  if (root) {
    Object.assign(payload, { name: root.name, startTime: root.startTime });
    if (root.endTime !== undefined) Object.assign(payload, { endTime: root.endTime, status: root.status === 'error' ? 'error' : 'ok' });
  }
  return Object.assign(payload, traceFieldsOfSpans(payload.spans, root));
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

function rejectAll(scopeSpans: unknown, why: string, rejected: OtlpMapping['rejected']): void {
  if (!Array.isArray(scopeSpans)) return;
  for (const ss of scopeSpans) {
    const spans = (ss as { spans?: unknown } | null)?.spans;
    if (Array.isArray(spans)) for (const _ of spans) rejected.push({ message: why });
  }
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const message = (err: unknown) => (err instanceof OtlpValueError ? err.message : err instanceof RangeError ? 'a value nests too deep' : 'the span could not be read');
