import { Reader, util } from 'protobufjs';
import { withMicros } from '../times';
import { utf8Text } from './utf8-interning';
import { Json, MAX_VALUE_DEPTH, NO_KEY, OtlpValueError, ReadAttributes, TOO_DEEP, UnixNanos, doubleValue } from './otlp-values';

/**
 * An ExportTraceServiceRequest read straight from its protobuf bytes into the OTLP/JSON shape
 * the mapping reads (otlp-to-traces.ts): ids in hex, fixed64 times as UnixNanos, only
 * the fields present on the wire, unknown fields skipped, and each attribute list already the
 * object keyValuesToObject makes of one (ReadAttributes): protobufjs' reflection decode and
 * `toObject` build a message object per KeyValue and AnyValue, several times the cost. The
 * wire format itself is still read by protobufjs' Reader. Field numbers: opentelemetry-proto v1.11.0 (otlp-descriptor.ts), held
 * to the official encoder by otlp-codec.spec.ts.
 */
export function readExportTraceRequest(body: Uint8Array): Record<string, unknown> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const reader = Reader.create(bytes);
  const resourceSpans: unknown[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) resourceSpans.push(message(reader, tag, readResourceSpans));
    else reader.skipType(tag & 7);
  }
  return resourceSpans.length ? { resourceSpans } : {};
}

const LENGTH_DELIMITED = 2;
const FIXED64 = 1;
const FIXED32 = 5;
const VARINT = 0;

type Fields = Record<string, unknown>;

/** A length-delimited sub-message at the reader's position, read by `read` up to its end. */
function message<T>(reader: Reader, tag: number, read: (reader: Reader, end: number) => T): T {
  expectWireType(tag, LENGTH_DELIMITED);
  const end = messageEnd(reader);
  const value = read(reader, end);
  if (reader.pos !== end) throw new OtlpValueError('a message does not end where its length says');
  return value;
}

function expectWireType(tag: number, wireType: number): void {
  if ((tag & 7) !== wireType) throw new OtlpValueError(`field ${tag >>> 3} has wire type ${tag & 7}, not ${wireType}`);
}

/** A repeated field's next element, appended to `fields[name]`. */
function push(fields: Fields, name: string, value: unknown): void {
  const list = fields[name] as unknown[] | undefined;
  if (list) list.push(value);
  else fields[name] = [value];
}

function readResourceSpans(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        fields.resource = message(reader, tag, readResource);
        break;
      case 2:
        push(fields, 'scopeSpans', message(reader, tag, readScopeSpans));
        break;
      case 3:
        fields.schemaUrl = string(reader, tag);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

/** A Resource: its attributes (field 1) are all the mapping reads. */
function readResource(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) readAttribute(fields, reader, tag);
    else reader.skipType(tag & 7);
  }
  return fields;
}

function readScopeSpans(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        fields.scope = message(reader, tag, readScope);
        break;
      case 2:
        push(fields, 'spans', message(reader, tag, readSpan));
        break;
      case 3:
        fields.schemaUrl = string(reader, tag);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

function readScope(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        fields.name = string(reader, tag);
        break;
      case 2:
        fields.version = string(reader, tag);
        break;
      case 3:
        readAttribute(fields, reader, tag);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

function readSpan(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        fields.traceId = hexBytes(reader, tag);
        break;
      case 2:
        fields.spanId = hexBytes(reader, tag);
        break;
      case 3:
        fields.traceState = string(reader, tag);
        break;
      case 4:
        fields.parentSpanId = hexBytes(reader, tag);
        break;
      case 5:
        fields.name = string(reader, tag);
        break;
      case 6:
        expectWireType(tag, VARINT);
        fields.kind = reader.int32();
        break;
      case 7:
        fields.startTimeUnixNano = unixNanos(reader, tag);
        break;
      case 8:
        fields.endTimeUnixNano = unixNanos(reader, tag);
        break;
      case 9:
        readAttribute(fields, reader, tag);
        break;
      case 11:
        push(fields, 'events', message(reader, tag, readEvent));
        break;
      case 13:
        push(fields, 'links', message(reader, tag, readLink));
        break;
      case 15:
        fields.status = message(reader, tag, readStatus);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

function readEvent(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        fields.timeUnixNano = unixNanos(reader, tag);
        break;
      case 2:
        fields.name = string(reader, tag);
        break;
      case 3:
        readAttribute(fields, reader, tag);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

function readLink(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        fields.traceId = hexBytes(reader, tag);
        break;
      case 2:
        fields.spanId = hexBytes(reader, tag);
        break;
      case 3:
        fields.traceState = string(reader, tag);
        break;
      case 4:
        readAttribute(fields, reader, tag);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

function readStatus(reader: Reader, end: number): Fields {
  const fields: Fields = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 2:
        fields.message = string(reader, tag);
        break;
      case 3:
        expectWireType(tag, VARINT);
        fields.code = reader.int32();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return fields;
}

/**
 * One KeyValue of a repeated `attributes` field, straight into the ReadAttributes object
 * keyValuesToObject would have built from it (otlp-values.ts: the same rules and errors).
 * A value nested too deep, or a pair without a key, is noted and skipped: the mapping then
 * refuses that span alone, as it refuses one from an OTLP/JSON body.
 */
function readAttribute(fields: Fields, reader: Reader, tag: number): void {
  const attributes = (fields.attributes ??= new ReadAttributes()) as ReadAttributes;
  expectWireType(tag, LENGTH_DELIMITED);
  const end = messageEnd(reader);
  try {
    readKeyValueInto(attributes, reader, end, 0);
  } catch (err) {
    if (!(err instanceof AttributeError)) throw err;
    attributes.error ??= err.message;
    reader.pos = end;
  }
  if (reader.pos !== end) throw new OtlpValueError('a message does not end where its length says');
}

/** A broken attribute rule (otlp-values.ts' words): the KeyValue is skipped, the rest read. */
class AttributeError extends Error {}

function messageEnd(reader: Reader): number {
  const end = reader.uint32() + reader.pos;
  if (end > reader.len) throw new OtlpValueError('a message runs past the end of the body');
  return end;
}

function readKeyValueInto(target: ReadAttributes | { values: Record<string, Json> }, reader: Reader, end: number, depth: number): void {
  let key: string | undefined;
  let value: Json = null;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        key = string(reader, tag);
        break;
      case 2:
        expectWireType(tag, LENGTH_DELIMITED);
        value = readAnyValue(reader, messageEnd(reader), depth);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  if (key === undefined) throw new AttributeError(NO_KEY);
  // Left out, so plain assignment cannot reach the prototype (as keyValuesToObject does).
  if (key !== '__proto__') target.values[key] = value;
}

/** An AnyValue as JSON (anyValueToJson's rules; a oneof: the last member on the wire wins). */
function readAnyValue(reader: Reader, end: number, depth: number): Json {
  if (depth > MAX_VALUE_DEPTH) throw new AttributeError(TOO_DEEP);
  let value: Json = null;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        value = string(reader, tag);
        break;
      case 2:
        expectWireType(tag, VARINT);
        value = reader.bool();
        break;
      case 3:
        expectWireType(tag, VARINT);
        // Past 2^53 it rounds, as a JSON number does everywhere else in the API.
        value = util.LongBits.from(reader.int64()).toNumber();
        break;
      case 4:
        expectWireType(tag, FIXED64);
        value = doubleValue(reader.double());
        break;
      case 5:
        expectWireType(tag, LENGTH_DELIMITED);
        value = readArrayValue(reader, messageEnd(reader), depth + 1);
        break;
      case 6: {
        expectWireType(tag, LENGTH_DELIMITED);
        const list = { values: {} as Record<string, Json> };
        readKeyValueList(list, reader, messageEnd(reader), depth + 1);
        value = list.values;
        break;
      }
      case 7:
        expectWireType(tag, LENGTH_DELIMITED);
        value = bytesOf(reader).toString('base64');
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  if (reader.pos !== end) throw new OtlpValueError('a message does not end where its length says');
  return value;
}

function readArrayValue(reader: Reader, end: number, depth: number): Json[] {
  const values: Json[] = [];
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) {
      expectWireType(tag, LENGTH_DELIMITED);
      values.push(readAnyValue(reader, messageEnd(reader), depth));
    } else reader.skipType(tag & 7);
  }
  return values;
}

function readKeyValueList(target: { values: Record<string, Json> }, reader: Reader, end: number, depth: number): void {
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) {
      expectWireType(tag, LENGTH_DELIMITED);
      const pairEnd = messageEnd(reader);
      readKeyValueInto(target, reader, pairEnd, depth);
      if (reader.pos !== pairEnd) throw new OtlpValueError('a message does not end where its length says');
    } else reader.skipType(tag & 7);
  }
}

/** A string field, short ones interned (utf8-interning.ts): keys and values repeat on every span. */
function string(reader: Reader, tag: number): string {
  expectWireType(tag, LENGTH_DELIMITED);
  const end = messageEnd(reader);
  const start = reader.pos;
  reader.pos = end;
  return utf8Text(reader.buf as Buffer, start, end);
}

/** A bytes field as hex, read off the body itself: no Buffer view per id (three per span). */
function hexBytes(reader: Reader, tag: number): string {
  expectWireType(tag, LENGTH_DELIMITED);
  const end = messageEnd(reader);
  const start = reader.pos;
  reader.pos = end;
  return (reader.buf as Buffer).toString('hex', start, end);
}

/** A bytes field as a Buffer over the body (the reader is made on a Buffer, so its slices are Buffers: no copy). */
function bytesOf(reader: Reader): Buffer {
  const bytes = reader.bytes();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** 2^32 = 4294 × 10^6 + 967296: splits a fixed64 so that each part stays an exact double. */
const TWO_32_MILLIONS = 4294;
const TWO_32_REST = 967_296;

/** A fixed64 of unix nanoseconds as milliseconds to the microsecond, exact, without BigInt, Long or a decimal string. */
function unixNanos(reader: Reader, tag: number): UnixNanos {
  expectWireType(tag, FIXED64);
  const low = reader.fixed32();
  const high = reader.fixed32();
  // nanoseconds = high × 2^32 + low = high × 4294 × 10^6 + (high × 967296 + low), the last below 2^53.
  const rest = high * TWO_32_REST + low;
  return new UnixNanos(withMicros(high * TWO_32_MILLIONS + Math.floor(rest / 1e6), Math.floor((rest % 1e6) / 1000)), high === 0 && low === 0);
}
