import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as path from 'node:path';
import * as protobuf from 'protobufjs';
import { OTLP_TRACE_DESCRIPTOR } from './otlp-descriptor';
import { decodeExportResponse, decodeGrpcStatusDetails, decodeOtlpProtobuf, decodeStatus, encodeExportResponse, encodeGrpcStatusDetails, encodeStatus } from './otlp-codec';
import { otlpToTraces } from './otlp-to-traces';

/** Spans made by the real OpenTelemetry SDK, serialised by its own OTLP serialisers. */
function sdkSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'codec-test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('codec-spec', '0.0.1');
  // No context manager is registered here: the parent is passed explicitly.
  const root = tracer.startSpan('pipeline');
  const attributes = { 'gen_ai.request.model': 'veo-3', 'gen_ai.usage.input_tokens': 12, 'cinetrace.video.duration_seconds': 8 };
  const child = tracer.startSpan('render', { attributes }, trace.setSpan(ROOT_CONTEXT, root));
  child.addEvent('frame-batch', { frames: 24 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'nsfw filter' });
  child.end();
  root.end();
  return exporter.getFinishedSpans();
}

describe('OTLP decoding', () => {
  it('reads a protobuf export exactly as its OTLP/JSON twin', () => {
    const spans = sdkSpans();
    const fromProtobuf = otlpToTraces(decodeOtlpProtobuf(ProtobufTraceSerializer.serializeRequest(spans)!));
    const fromJson = otlpToTraces(JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8')));
    expect(fromProtobuf).toEqual(fromJson);
    const [payload] = fromProtobuf.payloads;
    expect(payload.trace.id).toBe(spans[0].spanContext().traceId);
    expect(payload.trace.name).toBe('pipeline');
    const render = payload.trace.spans.find((s) => s.name === 'render')!;
    expect(render).toMatchObject({
      id: spans[0].spanContext().spanId,
      parentId: spans[1].spanContext().spanId,
      status: 'error',
      statusMessage: 'nsfw filter',
      model: 'veo-3',
      usage: { inputTokens: 12, videoSeconds: 8 },
      events: [{ name: 'frame-batch', attributes: { frames: 24 } }],
    });
    expect(render.startTime).toBe(spans[0].startTime[0] * 1000 + Math.floor(spans[0].startTime[1] / 1e6));
  });

  it('refuses bytes that are not an export request', () => {
    expect(() => decodeOtlpProtobuf(Buffer.from('not protobuf at all, just text'))).toThrow(/not a protobuf/);
  });

  it('matches the vendored .proto files (regenerate with libs/traces/scripts/generate-otlp-descriptor.js)', () => {
    const root = new protobuf.Root();
    root.resolvePath = (_origin: string, target: string) => path.join(__dirname, '..', '..', 'proto', target);
    root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto');
    expect(JSON.parse(JSON.stringify(root.toJSON()))).toEqual(OTLP_TRACE_DESCRIPTOR);
  });
});

describe('OTLP answers', () => {
  it('encode an empty success and a partial success in both encodings', () => {
    expect(encodeExportResponse('json')).toEqual({ contentType: 'application/json', body: '{}' });
    expect(JSON.parse(encodeExportResponse('json', { rejectedSpans: 2, errorMessage: 'why' }).body as string)).toEqual({
      partialSuccess: { rejectedSpans: '2', errorMessage: 'why' },
    });
    const proto = encodeExportResponse('protobuf', { rejectedSpans: 2, errorMessage: 'why' });
    expect(proto.contentType).toBe('application/x-protobuf');
    expect(decodeExportResponse(proto.body as Buffer)).toEqual({ partialSuccess: { rejectedSpans: 2, errorMessage: 'why' } });
    expect((encodeExportResponse('protobuf').body as Buffer).length).toBe(0);
  });

  it('encode a google.rpc.Status', () => {
    expect(decodeStatus(encodeStatus('protobuf', 3, 'bad body').body as Buffer)).toEqual({ code: 3, message: 'bad body' });
    expect(JSON.parse(encodeStatus('json', 14, 'later').body as string)).toEqual({ code: 14, message: 'later' });
  });

  it('encode gRPC status details: a RetryInfo when the exporter should come back later, none otherwise', () => {
    expect(decodeGrpcStatusDetails(encodeGrpcStatusDetails(14, 'trace-ingest is behind', 3))).toEqual({ code: 14, message: 'trace-ingest is behind', retryAfterSeconds: 3 });
    expect(decodeGrpcStatusDetails(encodeGrpcStatusDetails(3, 'bad body'))).toEqual({ code: 3, message: 'bad body', retryAfterSeconds: undefined });
    // google.rpc.Status as a generic decoder reads it: the RetryInfo is an Any of its well-known type.
    const decoded = protobuf.Root.fromJSON({
      nested: {
        Status: { fields: { code: { type: 'int32', id: 1 }, details: { rule: 'repeated', type: 'Any', id: 3 } } },
        Any: { fields: { type_url: { type: 'string', id: 1 } } },
      },
    }).lookupType('Status');
    expect(decoded.toObject(decoded.decode(encodeGrpcStatusDetails(14, 'later', 1)))).toEqual({ code: 14, details: [{ type_url: 'type.googleapis.com/google.rpc.RetryInfo' }] });
  });
});
