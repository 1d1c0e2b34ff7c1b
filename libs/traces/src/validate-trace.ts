import { FieldError, SpanEvent, SpanInput, TraceInput } from '@cinetrace/contracts';
import Ajv, { ErrorObject } from 'ajv';
import { monotonicFactory } from 'ulid';
import { traceSchema } from './trace.schema';
import { unfaithfulJsonValues } from './json-values';
import { fitsJsonBytes } from './json-size';
import { TIME_INPUT_MESSAGE, toEpochMs } from './times';

export const METADATA_MAX_BYTES = 64 * 1024;
export const PAYLOAD_FIELD_MAX_BYTES = 1024 * 1024;

const ajv = new Ajv({ allErrors: true, strict: false });
const checkShape = ajv.compile(traceSchema);
const nextUlid = monotonicFactory();
const generatedId = (prefix: string) => `${prefix}_${nextUlid().toLowerCase()}`;

export type TraceValidation = { ok: true; trace: TraceInput } | { ok: false; errors: FieldError[] };

export interface ValidateTraceOptions {
  /** Prefix of every error path (`traces[3]` for a batch item). */
  path?: string;
}

/**
 * Checks a trace as a client sent it against every rule of API.md but the parent links
 * (see checkSpanParents, which may need the stored trace) and names each offending field
 * by its path (`spans[2].startTime`). On success, gives the trace with ids assigned and
 * times as epoch milliseconds, holding only the fields that were sent.
 */
export function validateTrace(raw: unknown, options: ValidateTraceOptions = {}): TraceValidation {
  const at = (path: string) => joinPath(options.path ?? '', path);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: options.path || 'body', message: 'must be a trace object' }] };
  }
  // Shape errors do not stop the checks below: one answer names every offending field.
  const shapeErrors = checkShape(raw) ? [] : (checkShape.errors ?? []).map((e) => fromAjv(e, (p) => p));
  const body = raw as Record<string, unknown>;
  const errors: FieldError[] = unfaithfulJsonValues(raw);
  const trace: TraceInput = { id: typeof body.id === 'string' ? body.id : generatedId('tr'), spans: [] };
  copyPresent(body, trace, ['name', 'status', 'input', 'output', 'metadata', 'tags', 'userId', 'sessionId']);
  checkTimes(body, trace, '', errors);
  checkSize(body.metadata, METADATA_MAX_BYTES, 'metadata', errors);
  checkSize(body.input, PAYLOAD_FIELD_MAX_BYTES, 'input', errors);
  checkSize(body.output, PAYLOAD_FIELD_MAX_BYTES, 'output', errors);

  const spans: unknown[] = Array.isArray(body.spans) ? body.spans : [];
  const seen = new Map<string, number>();
  spans.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return; // a shape error
    const raw = item as Record<string, unknown>;
    const path = `spans[${i}]`;
    const span: SpanInput = { id: typeof raw.id === 'string' ? raw.id : generatedId('sp') };
    copyPresent(raw, span, ['parentId', 'name', 'kind', 'status', 'statusMessage', 'model', 'input', 'output', 'usage', 'costUsd', 'attributes']);
    checkTimes(raw, span, `${path}.`, errors);
    checkSize(raw.attributes, METADATA_MAX_BYTES, `${path}.attributes`, errors);
    checkSize(raw.input, PAYLOAD_FIELD_MAX_BYTES, `${path}.input`, errors);
    checkSize(raw.output, PAYLOAD_FIELD_MAX_BYTES, `${path}.output`, errors);
    if (Array.isArray(raw.events)) {
      span.events = raw.events.map((e: unknown, j: number) => toEvent(e && typeof e === 'object' ? (e as Record<string, unknown>) : {}, `${path}.events[${j}]`, errors));
    }
    if (seen.has(span.id)) errors.push({ path: `${path}.id`, message: `repeats the id of spans[${seen.get(span.id)}]` });
    else seen.set(span.id, i);
    trace.spans.push(span);
  });

  // A field the shape check already named is not named twice.
  const named = new Set(shapeErrors.map((e) => e.path));
  const all = [...shapeErrors, ...errors.filter((e) => !named.has(e.path))];
  if (all.length) return { ok: false, errors: all.map((e) => ({ ...e, path: at(e.path) || 'body' })) };
  return { ok: true, trace };
}

function checkTimes(raw: Record<string, unknown>, target: { startTime?: number; endTime?: number | null }, prefix: string, errors: FieldError[]): void {
  if (raw.startTime !== undefined) {
    const ms = toEpochMs(raw.startTime);
    if (ms === undefined) errors.push({ path: `${prefix}startTime`, message: TIME_INPUT_MESSAGE });
    else target.startTime = ms;
  }
  if (raw.endTime === null) target.endTime = null;
  else if (raw.endTime !== undefined) {
    const ms = toEpochMs(raw.endTime);
    if (ms === undefined) errors.push({ path: `${prefix}endTime`, message: TIME_INPUT_MESSAGE });
    else if (target.startTime !== undefined && ms < target.startTime) {
      errors.push({ path: `${prefix}endTime`, message: 'must not be before startTime' });
    } else target.endTime = ms;
  }
}

function toEvent(raw: Record<string, unknown>, path: string, errors: FieldError[]): SpanEvent {
  const time = toEpochMs(raw.time);
  if (time === undefined) errors.push({ path: `${path}.time`, message: TIME_INPUT_MESSAGE });
  checkSize(raw.attributes, METADATA_MAX_BYTES, `${path}.attributes`, errors);
  // As sent: the shape check names a name or attributes of another type.
  const event: SpanEvent = { name: raw.name as string, time: time ?? 0 };
  if (raw.attributes !== undefined) event.attributes = raw.attributes as SpanEvent['attributes'];
  return event;
}

/** The parentIds that name no span of the payload: only the stored trace can tell whether they exist. */
export function foreignParentIds(trace: TraceInput): string[] {
  const own = new Set(trace.spans.map((s) => s.id));
  const foreign = new Set<string>();
  for (const span of trace.spans) if (span.parentId && !own.has(span.parentId)) foreign.add(span.parentId);
  return [...foreign];
}

export interface SpanParentRules {
  /**
   * Whether a parentId may name a span not (yet) stored. OTLP exporters send a child
   * before its parent (a child ends first) and a parent may live in another service, so
   * OTLP ingest allows it; reads then count such a span as a root until its parent arrives.
   */
  allowUnknownParents?: boolean;
}

/**
 * A parentId names a span of this payload or one already stored (unless `rules` allow an
 * unknown one), and no span becomes its own ancestor, counting the stored links
 * (`storedParents`: span id → its stored parent, for the spans on the stored ancestor
 * chains of the foreign parents) under the payload's.
 */
export function checkSpanParents(trace: TraceInput, storedParents: ReadonlyMap<string, string | null> = new Map(), prefix = '', rules: SpanParentRules = {}): FieldError[] {
  const errors: FieldError[] = [];
  const spans = trace.spans;
  const parentOf = new Map<string, string | null>(storedParents);
  for (const span of spans) {
    // A span resent without parentId keeps its stored parent.
    if (span.parentId !== undefined || !parentOf.has(span.id)) parentOf.set(span.id, span.parentId ?? null);
  }
  spans.forEach((span, i) => {
    const parent = span.parentId;
    if (parent === undefined || parent === null) return;
    if (parent === span.id) errors.push({ path: `spans[${i}].parentId`, message: 'must not name the span itself' });
    else if (!parentOf.has(parent) && !rules.allowUnknownParents) {
      errors.push({ path: `spans[${i}].parentId`, message: `names no span of this trace ('${parent}')` });
    }
  });
  const reported = new Set<string>();
  spans.forEach((span, i) => {
    if (span.parentId === span.id) return; // reported above
    const path = new Set<string>([span.id]);
    for (let at = parentOf.get(span.id); at; at = parentOf.get(at)) {
      if (at === span.id) {
        if (![...path].some((id) => reported.has(id))) {
          errors.push({ path: `spans[${i}].parentId`, message: 'makes a cycle of parents' });
        }
        path.forEach((id) => reported.add(id));
        break;
      }
      if (path.has(at)) break;
      path.add(at);
    }
  });
  return errors.map((e) => ({ ...e, path: joinPath(prefix, e.path) }));
}

function checkSize(value: unknown, maxBytes: number, path: string, errors: FieldError[]): void {
  if (value !== undefined && !fitsJsonBytes(value, maxBytes)) {
    errors.push({ path, message: `must be at most ${maxBytes} bytes serialised` });
  }
}

function copyPresent(from: Record<string, unknown>, to: object, fields: string[]): void {
  for (const field of fields) if (from[field] !== undefined) (to as Record<string, unknown>)[field] = from[field];
}

function fromAjv(error: ErrorObject, at: (path: string) => string): FieldError {
  let path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
  let message = error.message ?? 'is not valid';
  if (error.keyword === 'required') {
    path = joinPath(path, String(error.params.missingProperty));
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    path = joinPath(path, String(error.params.additionalProperty));
    message = 'is not a field of a trace (see the API reference)';
  } else if (error.keyword === 'enum') {
    message = `must be one of: ${(error.params.allowedValues as string[]).join(', ')}`;
  } else if (error.keyword === 'pattern') {
    message = 'must be 1..128 of A-Z, a-z, 0-9, ".", "_", ":" and "-"';
  }
  return { path: at(path), message };
}

function joinPath(prefix: string, path: string): string {
  if (!prefix) return path;
  if (!path) return prefix;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}
