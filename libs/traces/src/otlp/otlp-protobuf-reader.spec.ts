import * as protobuf from 'protobufjs';
import { OTLP_TRACE_DESCRIPTOR } from './otlp-descriptor';
import { readExportTraceRequest } from './otlp-protobuf-reader';
import { otlpToTraces } from './otlp-to-traces';

/** protobufjs types util.Long as a bare constructor; it is long.js's Long, with its factories. */
type LongValue = protobuf.Long & { toBytesLE(): number[] };
const Long = protobuf.util.Long as unknown as { fromString(value: string, unsigned?: boolean): LongValue; fromNumber(value: number, unsigned?: boolean): LongValue };

const root = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR);
const ExportRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

const TRACE = Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex');
const ROOT = Buffer.from('b7ad6b7169203331', 'hex');
const CHILD = Buffer.from('00f067aa0ba902b7', 'hex');
const kv = (key: string, value: object) => ({ key, value });

/** Every field the mapping reads, each AnyValue kind, times past 2^53 nanoseconds. */
function richRequest(): object {
  return {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', { stringValue: 'render-farm' })], droppedAttributesCount: 1 },
        schemaUrl: 'https://opentelemetry.io/schemas/1.30.0',
        scopeSpans: [
          {
            scope: { name: 'pipeline', version: '2.1', attributes: [kv('scope.flag', { boolValue: true })] },
            spans: [
              {
                traceId: TRACE,
                spanId: ROOT,
                name: 'generate',
                kind: 2,
                startTimeUnixNano: Long.fromString('1764000000123456789', true),
                endTimeUnixNano: Long.fromString('1764000001999999999', true),
                status: { code: 1 },
                traceState: 'vendor=1',
                flags: 257,
              },
              {
                traceId: TRACE,
                spanId: CHILD,
                parentSpanId: ROOT,
                name: 'render ✓ ünïcode',
                kind: 3,
                startTimeUnixNano: Long.fromString('1764000000500000000', true),
                endTimeUnixNano: Long.fromNumber(0, true),
                attributes: [
                  kv('s', { stringValue: '' }),
                  kv('b', { boolValue: false }),
                  kv('i', { intValue: Long.fromNumber(-42) }),
                  kv('big', { intValue: Long.fromString('9007199254740993') }),
                  kv('d', { doubleValue: 0.25 }),
                  kv('bytes', { bytesValue: Buffer.from([0, 1, 2, 250]) }),
                  kv('list', { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 7 }, { kvlistValue: { values: [kv('k', { doubleValue: 1.5 })] } }] } }),
                  kv('map', { kvlistValue: { values: [kv('inner', { arrayValue: { values: [] } })] } }),
                  kv('empty', {}),
                  kv('gen_ai.request.model', { stringValue: 'veo-3' }),
                  kv('input.value', { stringValue: '{"prompt":"a cat"}' }),
                ],
                droppedAttributesCount: 3,
                events: [{ timeUnixNano: Long.fromString('1764000000600000001', true), name: 'frames', attributes: [kv('n', { intValue: 24 })] }],
                links: [{ traceId: TRACE, spanId: ROOT, traceState: 'a=b', attributes: [kv('why', { stringValue: 'retry' })], flags: 1 }],
                status: { code: 2, message: 'nsfw filter' },
              },
            ],
          },
        ],
      },
    ],
  };
}

/** protobufjs' own decode and toObject, as decodeOtlpProtobuf read bodies until the reader replaced them. */
function referenceRead(body: Uint8Array): unknown {
  const object = ExportRequest.toObject(ExportRequest.decode(body), { longs: String, bytes: String, enums: Number, defaults: false }) as {
    resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Record<string, unknown> & { links?: Array<Record<string, unknown>> }> }> }>;
  };
  const hex = (o: Record<string, unknown>) => {
    for (const f of ['traceId', 'spanId', 'parentSpanId']) if (typeof o[f] === 'string') o[f] = Buffer.from(o[f], 'base64').toString('hex');
  };
  for (const rs of object.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) (hex(span), (span.links ?? []).forEach(hex));
  return object;
}

const encode = (request: object) => ExportRequest.encode(ExportRequest.fromObject(request)).finish();

describe('readExportTraceRequest', () => {
  it('maps to the same traces as protobufjs decode + toObject, field for field', () => {
    const body = encode(richRequest());
    const read = readExportTraceRequest(body);
    expect(otlpToTraces(read)).toEqual(otlpToTraces(referenceRead(body)));
    const span = (read as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> }).resourceSpans[0].scopeSpans[0].spans[1];
    expect(span).toMatchObject({ traceId: TRACE.toString('hex'), spanId: CHILD.toString('hex'), parentSpanId: ROOT.toString('hex'), name: 'render ✓ ünïcode' });
    const [payload] = otlpToTraces(read).payloads;
    // Milliseconds to the microsecond, truncated, exact: 1764000001999999999 ns as a double would have rounded up to …2000 ms.
    expect(payload.trace).toMatchObject({ startTime: 1764000000123.456, endTime: 1764000001999.999 });
    expect(payload.trace.spans[1]).not.toHaveProperty('endTime'); // 0: unset
    expect(payload.trace.spans[1].events).toEqual([{ name: 'frames', time: 1764000000600, attributes: { n: 24 } }]);
    expect(payload.trace.spans[1].attributes).toMatchObject({
      i: -42,
      bytes: Buffer.from([0, 1, 2, 250]).toString('base64'),
      list: ['a', 7, { k: 1.5 }],
      map: { inner: [] },
      empty: null,
    });
  });

  it('reads the same as the reference for an empty request and one without optional fields', () => {
    for (const request of [{}, { resourceSpans: [{}] }, { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: ROOT }] }] }] }]) {
      const body = encode(request);
      expect(otlpToTraces(readExportTraceRequest(body))).toEqual(otlpToTraces(referenceRead(body)));
    }
  });

  it('skips fields it does not know (a newer proto), wherever they are', () => {
    const newer = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR);
    newer.lookupType('opentelemetry.proto.trace.v1.Span').add(new protobuf.Field('futureField', 99, 'string'));
    newer.lookupType('opentelemetry.proto.common.v1.AnyValue').add(new protobuf.Field('futureValue', 98, 'fixed32'));
    const NewerRequest = newer.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
    const request = richRequest() as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> };
    request.resourceSpans[0].scopeSpans[0].spans[0].futureField = 'from the future';
    const body = NewerRequest.encode(NewerRequest.fromObject(request)).finish();
    expect(otlpToTraces(readExportTraceRequest(body))).toEqual(otlpToTraces(readExportTraceRequest(encode(richRequest()))));
  });

  it('refuses a body cut short, text, and a field of the wrong wire type', () => {
    const body = encode(richRequest());
    expect(() => readExportTraceRequest(body.subarray(0, body.length - 7))).toThrow();
    expect(() => readExportTraceRequest(Buffer.from('not protobuf at all, just text'))).toThrow();
    // Field 1 (resource_spans) as a varint, not a message.
    expect(() => readExportTraceRequest(Buffer.from([0x08, 0x01]))).toThrow(/wire type/);
  });

  it('refuses the span whose attribute nests past 64 levels, however deep, and reads the rest', () => {
    // Written by hand: protobufjs' own encoder recurses too deep for 5,000 levels.
    const field = (tag: number, bytes: Uint8Array) => protobuf.Writer.create().uint32(tag).bytes(bytes).finish();
    const join = (...parts: Uint8Array[]) => Buffer.concat(parts);
    const nested = (levels: number) => {
      let value: Uint8Array = field(0x0a, Buffer.from('x')); // AnyValue { string_value: "x" }
      for (let i = 0; i < levels; i++) value = field(0x2a, field(0x0a, value)); // AnyValue { array_value { values: [value] } }
      const keyValue = join(field(0x0a, Buffer.from('deep')), field(0x12, value));
      const start = join(Buffer.from([0x39]), Buffer.from(Long.fromString('1764000000000000000', true).toBytesLE()));
      const span = join(field(0x0a, TRACE), field(0x12, ROOT), field(0x2a, Buffer.from('n')), start, field(0x4a, keyValue));
      return field(0x0a, field(0x12, field(0x12, span))); // request { resource_spans { scope_spans { spans } } }
    };
    for (const levels of [65, 5_000]) {
      const { payloads, rejected } = otlpToTraces(readExportTraceRequest(nested(levels)));
      expect(payloads).toEqual([]);
      expect(rejected).toEqual([{ traceId: TRACE.toString('hex'), spanId: ROOT.toString('hex'), message: 'an attribute value nests deeper than 64 levels' }]);
    }
    const [payload] = otlpToTraces(readExportTraceRequest(nested(64))).payloads;
    expect(payload.trace.spans[0].attributes).toHaveProperty('deep');
  });
});
