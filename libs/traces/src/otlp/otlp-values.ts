/**
 * OTLP values (AnyValue, KeyValue lists, int64s, ids) as the JSON the trace model holds.
 * Input is the OTLP/JSON shape (protobuf bodies are brought to it first, see
 * otlp-decode.ts), from an untrusted client: every read checks its type, and nesting is
 * bounded so a deep kvlist cannot hold the event loop or the stack.
 */
import { withMicros } from '../times';

/** Deepest AnyValue nesting taken (arrays and kvlists); the JSON API's own body depth default. */
export const MAX_VALUE_DEPTH = 64;

export class OtlpValueError extends Error {}

export const TOO_DEEP = `an attribute value nests deeper than ${MAX_VALUE_DEPTH} levels`;
export const NO_KEY = 'an attribute has no string key';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A KeyValue list the protobuf reader (otlp-protobuf-reader.ts) already turned into its
 * object, by the rules below; keyValuesToObject hands it over as it is. `error` is the first
 * rule broken (keyValuesToObject throws it, so the span is refused as it would be otherwise).
 */
export class ReadAttributes {
  readonly values: { [key: string]: Json } = {};
  error?: string;
}

/** An AnyValue as JSON: strings, booleans, numbers, arrays, objects; bytes as base64; empty as null. */
export function anyValueToJson(value: unknown, depth = 0): Json {
  if (depth > MAX_VALUE_DEPTH) throw new OtlpValueError(TOO_DEEP);
  if (value === null || value === undefined || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined) return int64ToNumber(v.intValue, 'intValue');
  if (v.doubleValue !== undefined) return doubleValue(v.doubleValue);
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  if (v.arrayValue !== undefined) {
    const values = (v.arrayValue as { values?: unknown } | null)?.values ?? [];
    if (!Array.isArray(values)) throw new OtlpValueError('arrayValue.values must be an array');
    return values.map((item) => anyValueToJson(item, depth + 1));
  }
  if (v.kvlistValue !== undefined) {
    return keyValuesToObject((v.kvlistValue as { values?: unknown } | null)?.values ?? [], depth + 1);
  }
  return null;
}

/**
 * A KeyValue list as an object. Own data properties only: a `__proto__` key is left out
 * (the JSON API refuses it; here a client's attribute must not become an object's prototype).
 */
export function keyValuesToObject(list: unknown, depth = 0): { [key: string]: Json } {
  if (list instanceof ReadAttributes) {
    if (list.error !== undefined) throw new OtlpValueError(list.error);
    return list.values;
  }
  if (list === undefined || list === null) return {};
  if (!Array.isArray(list)) throw new OtlpValueError('attributes must be an array of key-value pairs');
  const object: { [key: string]: Json } = {};
  for (const pair of list) {
    const key = (pair as { key?: unknown } | null)?.key;
    if (typeof key !== 'string') throw new OtlpValueError(NO_KEY);
    // Skipped, so plain assignment below cannot reach the prototype (and keeps the object fast).
    if (key === '__proto__') continue;
    object[key] = anyValueToJson((pair as { value?: unknown }).value, depth);
  }
  return object;
}

/**
 * An int64 (a decimal string in OTLP/JSON and from protobuf, or a JSON number) as a
 * number. Values past 2^53 lose precision as JSON numbers do everywhere else in the API.
 */
export function int64ToNumber(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return Number(value);
  throw new OtlpValueError(`${field} must be an integer (a number or a decimal string)`);
}

/** OTLP/JSON writes non-finite doubles as the strings "NaN", "Infinity", "-Infinity"; JSON cannot hold them, so they become null. */
export function doubleValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return null;
  throw new OtlpValueError('doubleValue must be a number');
}

/**
 * A fixed64 time the protobuf reader read (otlp-protobuf-reader.ts), already in milliseconds
 * to the microsecond: it never goes through a decimal string. `isZero`: the field was 0 (unset in OTLP).
 */
export class UnixNanos {
  constructor(
    readonly ms: number,
    readonly isZero: boolean,
  ) {}
}

/** Unix nanoseconds (fixed64: a decimal string or a number) as epoch milliseconds to the microsecond, truncated; undefined for 0 or absent. */
export function unixNanosToMs(value: unknown, field: string): number | undefined {
  if (value instanceof UnixNanos) return value.isZero ? undefined : value.ms;
  if (value === undefined || value === null || value === '0' || value === 0) return undefined;
  // A number past 2^53 arrives already rounded; nanoseconds → milliseconds keeps it exact enough.
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return withMicros(Math.floor(value / 1e6), Math.floor((value % 1e6) / 1000));
  // The last six digits are the nanoseconds past the millisecond: exact (the milliseconds stay below 2^53) and without BigInt.
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) {
    const digits = value.padStart(7, '0');
    return withMicros(Number(digits.slice(0, -6)), Number(digits.slice(-6, -3)));
  }
  throw new OtlpValueError(`${field} must be unix nanoseconds (a decimal string or a number)`);
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/** A trace id as lower-case hex, or an error message: 16 bytes, not all zero (an invalid id in OTel). */
export function traceIdHex(value: unknown): string | undefined {
  const hex = typeof value === 'string' ? value.toLowerCase() : '';
  return TRACE_ID.test(hex) && !/^0+$/.test(hex) ? hex : undefined;
}

/** A span id as lower-case hex: 8 bytes, not all zero. */
export function spanIdHex(value: unknown): string | undefined {
  const hex = typeof value === 'string' ? value.toLowerCase() : '';
  return SPAN_ID.test(hex) && !/^0+$/.test(hex) ? hex : undefined;
}
