import * as protobuf from 'protobufjs';
import { OTLP_TRACE_DESCRIPTOR } from './otlp-descriptor';
import { readExportTraceRequest } from './otlp-protobuf-reader';
import { OtlpValueError } from './otlp-values';

/** The two OTLP/HTTP encodings: the response goes out in the request's. */
export type OtlpEncoding = 'protobuf' | 'json';

const root = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR);
const ExportResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');

/**
 * google.rpc.Status, the body of an OTLP/HTTP error answer (the OTLP specification,
 * "Failures"). Its `details` (Any) are never sent, so the three fields are all it needs.
 */
const Status = protobuf.Type.fromJSON('Status', {
  fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } },
});
new protobuf.Root().define('google.rpc').add(Status);

/**
 * google.rpc.Status with its details, and the RetryInfo an OTLP/gRPC server puts there to
 * say when to retry (the OTLP specification, "Throttling"): what `grpc-status-details-bin` carries.
 */
const rpc = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
            Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
          },
        },
        rpc: {
          nested: {
            Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 }, details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 } } },
            RetryInfo: { fields: { retry_delay: { type: 'google.protobuf.Duration', id: 1 } } },
          },
        },
      },
    },
  },
});
const DetailedStatus = rpc.lookupType('google.rpc.Status');
const RetryInfo = rpc.lookupType('google.rpc.RetryInfo');

/**
 * A protobuf ExportTraceServiceRequest in the OTLP/JSON shape the mapping reads: field
 * names in lowerCamelCase, int64s as decimal strings, bytes values in base64, ids in hex.
 */
export function decodeOtlpProtobuf(body: Uint8Array): unknown {
  try {
    return readExportTraceRequest(body);
  } catch (err) {
    const why = err instanceof OtlpValueError ? `: ${err.message}` : '';
    throw new OtlpValueError(`the body is not a protobuf ExportTraceServiceRequest${why}`);
  }
}

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** The answer to nearly every export, encoded once (an empty message: zero bytes in protobuf). */
const EMPTY_SUCCESS = {
  json: { contentType: 'application/json', body: '{}' },
  protobuf: { contentType: 'application/x-protobuf', body: Buffer.alloc(0) },
} as const;

/** An ExportTraceServiceResponse: empty when every span was taken, else with partial_success. */
export function encodeExportResponse(encoding: OtlpEncoding, partial?: PartialSuccess): { contentType: string; body: Buffer | string } {
  if (!partial || partial.rejectedSpans <= 0) return EMPTY_SUCCESS[encoding];
  const response = partial && partial.rejectedSpans > 0 ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {};
  if (encoding === 'json') return { contentType: 'application/json', body: JSON.stringify(response) };
  return { contentType: 'application/x-protobuf', body: Buffer.from(ExportResponse.encode(ExportResponse.fromObject(response)).finish()) };
}

/** A google.rpc.Status body (gRPC's code, our message). */
export function encodeStatus(encoding: OtlpEncoding, code: number, message: string): { contentType: string; body: Buffer | string } {
  if (encoding === 'json') return { contentType: 'application/json', body: JSON.stringify({ code, message }) };
  return { contentType: 'application/x-protobuf', body: Buffer.from(Status.encode(Status.fromObject({ code, message })).finish()) };
}

/** Decodes an ExportTraceServiceResponse (for tests and tools that read our answers). */
export function decodeExportResponse(body: Uint8Array): Record<string, unknown> {
  return ExportResponse.toObject(ExportResponse.decode(body), { longs: Number, defaults: false });
}

/** Decodes a google.rpc.Status body. */
export function decodeStatus(body: Uint8Array): { code?: number; message?: string } {
  return Status.toObject(Status.decode(body), { defaults: false });
}

/** A gRPC error's `grpc-status-details-bin`: google.rpc.Status, with a RetryInfo when the client should come back after `retryAfterSeconds`. */
export function encodeGrpcStatusDetails(code: number, message: string, retryAfterSeconds?: number): Buffer {
  const details =
    retryAfterSeconds === undefined
      ? []
      : [{ type_url: 'type.googleapis.com/google.rpc.RetryInfo', value: RetryInfo.encode(RetryInfo.fromObject({ retry_delay: { seconds: retryAfterSeconds } })).finish() }];
  return Buffer.from(DetailedStatus.encode(DetailedStatus.fromObject({ code, message, details })).finish());
}

/** Reads `grpc-status-details-bin` back: the code, the message and the RetryInfo's delay in seconds (for tests and tools). */
export function decodeGrpcStatusDetails(bytes: Uint8Array): { code?: number; message?: string; retryAfterSeconds?: number } {
  const status = DetailedStatus.toObject(DetailedStatus.decode(bytes), { longs: Number, defaults: false }) as {
    code?: number;
    message?: string;
    details?: Array<{ type_url: string; value: Uint8Array }>;
  };
  const retry = status.details?.find((d) => d.type_url.endsWith('/google.rpc.RetryInfo'));
  const delay = retry ? (RetryInfo.toObject(RetryInfo.decode(retry.value), { longs: Number }) as { retry_delay?: { seconds?: number } }).retry_delay : undefined;
  return { code: status.code, message: status.message, retryAfterSeconds: delay?.seconds };
}
