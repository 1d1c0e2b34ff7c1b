import { Stack } from '@cinetrace/testing';
import { Attributes, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import * as grpc from '@grpc/grpc-js';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, RandomIdGenerator, ReadableSpan, SimpleSpanProcessor, SpanExporter } from '@opentelemetry/sdk-trace-base';

export { SpanKind, SpanStatusCode };

/** The OTLP route exporters reach when OTEL_EXPORTER_OTLP_ENDPOINT is the stack's base URL. */
export const OTLP_TRACES = '/v1/traces';
export const OTLP_TRACES_UNDER_API = '/api/v1/otel/v1/traces';

/** OTLP/HTTP with JSON or protobuf bodies, or OTLP/gRPC. */
export type Encoding = 'json' | 'protobuf' | 'grpc';

export interface ExporterOptions {
  encoding: Encoding;
  /** The project key sent as x-project-key (as OTEL_EXPORTER_OTLP_HEADERS would). */
  projectKey: string;
  apiKey: string;
  gzip?: boolean;
  path?: string;
}

/** The exporters' compression setting (an enum of otlp-exporter-base's, which this suite does not import). */
type Compression = NonNullable<NonNullable<ConstructorParameters<typeof JsonExporter>[0]>['compression']>;

/** A real OpenTelemetry SDK OTLP exporter pointed at the stack, authenticated as a user would configure it. */
export function otlpExporter(stack: Stack, options: ExporterOptions): SpanExporter {
  if (options.encoding === 'grpc') {
    return new GrpcExporter({
      url: `http://${stack.otlpGrpcAddress}`,
      metadata: grpcMetadata(options.apiKey, options.projectKey),
      compression: (options.gzip ? 'gzip' : 'none') as Compression,
      timeoutMillis: 20_000,
    });
  }
  const config = {
    url: `${stack.baseUrl}${options.path ?? OTLP_TRACES}`,
    headers: { authorization: `Bearer ${options.apiKey}`, 'x-project-key': options.projectKey },
    compression: (options.gzip ? 'gzip' : 'none') as Compression,
    timeoutMillis: 20_000,
  };
  return options.encoding === 'json' ? new JsonExporter(config) : new ProtobufExporter(config);
}

/** Exports spans through an exporter and gives its result (SUCCESS, or FAILED with the error). */
export function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

export const succeeded = (result: ExportResult) => result.code === ExportResultCode.SUCCESS;

/**
 * Records spans with the real SDK (a tracer provider with an in-memory exporter), so a test
 * decides which finished spans go into which export.
 */
export function recordSpans(
  build: (tools: { start: (name: string, attributes?: Attributes, parent?: Span, kind?: SpanKind) => Span }) => void,
  options: { traceId?: string } = {},
): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const ids = new RandomIdGenerator();
  const provider = new BasicTracerProvider({
    // A fixed trace id lets a test claim a trace id someone else uses.
    idGenerator: options.traceId ? { generateTraceId: () => options.traceId!, generateSpanId: () => ids.generateSpanId() } : ids,
    resource: resourceFromAttributes({ 'service.name': 'video-pipeline', 'deployment.environment': 'e2e' }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('cinetrace-e2e', '1.0.0');
  build({
    // No context manager is registered: a parent is passed explicitly.
    start: (name, attributes, parent, kind) => tracer.startSpan(name, { attributes, kind }, parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT),
  });
  return memory.getFinishedSpans();
}

/** Epoch milliseconds of an SDK span time ([seconds, nanos]), as the trace model stores it. */
export const hrMs = ([seconds, nanos]: [number, number]): number => seconds * 1000 + Math.floor(nanos / 1e6);
export const hrIso = (time: [number, number]): string => new Date(hrMs(time)).toISOString();

/** An OTLP answer; `Json` is what the caller expects its JSON to be (a claim, not checked). */
export interface OtlpAnswer<Json = unknown> {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The body as JSON when the answer is JSON. */
  json: Json;
}

/** POSTs a body to an OTLP route as-is (bytes kept: a protobuf answer is not text). */
export async function postOtlp<Json = unknown>(stack: Stack, body: string | Buffer, headers: Record<string, string>, path = OTLP_TRACES): Promise<OtlpAnswer<Json>> {
  const response = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json: unknown = (response.headers.get('content-type') ?? '').startsWith('application/json') && bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, bytes, json: json as Json };
}

/** The two auth headers of a project, as OTEL_EXPORTER_OTLP_HEADERS would send them. */
export const otlpHeaders = (apiKey: string, projectKey: string, contentType: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${apiKey}`,
  'x-project-key': projectKey,
  'content-type': contentType,
  ...extra,
});

/** The two auth headers as gRPC metadata (OTEL_EXPORTER_OTLP_HEADERS sends them so to a gRPC endpoint). */
export function grpcMetadata(apiKey: string, projectKey: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (apiKey) metadata.set('authorization', `Bearer ${apiKey}`);
  if (projectKey) metadata.set('x-project-key', projectKey);
  return metadata;
}

export interface GrpcAnswer {
  /** The gRPC status code (0: OK). */
  code: number;
  details: string;
  /** The ExportTraceServiceResponse's bytes (OK only). */
  bytes?: Buffer;
  /** Trailing metadata of a failed call (grpc-status-details-bin …). */
  metadata?: grpc.Metadata;
}

/** Calls TraceService/Export with these request bytes as they are, to read the exact status an exporter gets. */
export function callGrpcExport(stack: Stack, bytes: Buffer, metadata: grpc.Metadata, { gzip = false } = {}): Promise<GrpcAnswer> {
  // gzip: the message goes compressed (grpc-encoding: gzip), as exporters configured so send it.
  const client = new grpc.Client(stack.otlpGrpcAddress, grpc.credentials.createInsecure(), gzip ? { 'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip } : {});
  const identity = (b: Buffer) => b;
  return new Promise<GrpcAnswer>((resolve) => {
    client.makeUnaryRequest(
      '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      identity,
      identity,
      bytes,
      metadata,
      { deadline: Date.now() + 30_000 },
      (err: grpc.ServiceError | null, response?: Buffer) => {
        client.close();
        resolve(err ? { code: err.code, details: err.details, metadata: err.metadata } : { code: 0, details: '', bytes: response });
      },
    );
  });
}
