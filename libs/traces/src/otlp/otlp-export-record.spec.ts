import { expect } from '@jest/globals';
import * as protobuf from 'protobufjs';
import { decodeOtlpProtobuf } from './otlp-codec';
import { OTLP_TRACE_DESCRIPTOR } from './otlp-descriptor';
import { MAX_EXPORT_RECORD_BYTES, exportTravelsAsBytes, traceOfExportRecord } from './otlp-export-record';
import { checkOtlpPayloadAlone } from './otlp-span-checks';
import { otlpToTraces } from './otlp-to-traces';

const ExportRequest = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const OTHER = '5b8efff798038103d269b633813fc60c';
const T0 = 1_780_000_000_000n * 1_000_000n; // ns
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const prompt = JSON.stringify({ prompt: 'a lighthouse at dusk, slow dolly-in, 35mm film grain', seed: 7 });

const span = (traceId: string, spanId: string, parent?: string, attributes: object[] = []) => ({
  traceId: Buffer.from(traceId, 'hex'),
  spanId: Buffer.from(spanId, 'hex'),
  ...(parent ? { parentSpanId: Buffer.from(parent, 'hex') } : {}),
  name: parent ? 'generate' : 'pipeline',
  kind: parent ? 3 : 2,
  startTimeUnixNano: (T0 + 1_000_000n).toString(),
  endTimeUnixNano: (T0 + 4_000_000_000n).toString(),
  status: { code: 1 },
  attributes,
  events: [{ name: 'queued', timeUnixNano: (T0 + 2_000_000n).toString() }],
});

const encode = (spans: object[]): Buffer =>
  Buffer.from(
    ExportRequest.encode(
      ExportRequest.fromObject({
        resourceSpans: [{ resource: { attributes: [str('service.name', 'render-farm')] }, scopeSpans: [{ scope: { name: 'pipeline', version: '2' }, spans }] }],
      }),
    ).finish(),
  );

/** What the gateway publishes for an export: decoded, mapped, each trace validated. */
function gatewayTraces(bytes: Buffer) {
  const mapping = otlpToTraces(decodeOtlpProtobuf(bytes));
  return mapping.payloads.map(({ trace }) => {
    const checked = checkOtlpPayloadAlone(trace);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    return checked.trace;
  });
}

const oneTrace = () =>
  encode([
    span(TRACE, 'b7ad6b7169203331'),
    span(TRACE, '00f067aa0ba902b7', 'b7ad6b7169203331', [str('input.value', prompt), str('input.mime_type', 'application/json'), str('llm.model_name', 'video-xl')]),
  ]);

describe('an OTLP export on the trace stream as its bytes', () => {
  it('maps back, in trace-ingest, to exactly the trace the gateway validated', () => {
    const bytes = oneTrace();
    const [trace] = gatewayTraces(bytes);
    const stored = traceOfExportRecord(bytes, TRACE);
    expect(stored).toEqual(trace);
    expect(stored.spans[1]).toMatchObject({ input: JSON.parse(prompt) as unknown, model: 'video-xl', parentId: 'b7ad6b7169203331' });
    expect(stored.spans[1].attributes).toMatchObject({ 'otel.resource': { 'service.name': 'render-farm' }, 'input.value': prompt });
  });

  it('goes as bytes only when the export is one protobuf trace of bounded size', () => {
    const bytes = oneTrace();
    const traces = gatewayTraces(bytes);
    expect(exportTravelsAsBytes('protobuf', bytes, traces)).toBe(true);
    expect(exportTravelsAsBytes('json', bytes, traces)).toBe(false);
    expect(exportTravelsAsBytes('protobuf', Buffer.alloc(MAX_EXPORT_RECORD_BYTES + 1), traces)).toBe(false);
    const two = encode([span(TRACE, 'b7ad6b7169203331'), span(OTHER, '00f067aa0ba902b7')]);
    expect(exportTravelsAsBytes('protobuf', two, gatewayTraces(two))).toBe(false);
  });

  it('refuses bytes that are not that one valid trace (the consumer sets the record aside)', () => {
    expect(() => traceOfExportRecord(oneTrace(), OTHER)).toThrow(/does not hold that one trace/);
    expect(() => traceOfExportRecord(encode([span(TRACE, 'b7ad6b7169203331'), span(OTHER, '00f067aa0ba902b7')]), TRACE)).toThrow(/does not hold that one trace/);
    // A span naming itself as its parent maps, but does not validate.
    expect(() => traceOfExportRecord(encode([span(TRACE, 'b7ad6b7169203331', 'b7ad6b7169203331')]), TRACE)).toThrow(/does not validate/);
    expect(() => traceOfExportRecord(Buffer.from([0xff, 0xff, 0xff]), TRACE)).toThrow();
  });
});
