import { DomainError, ErrorCode, FieldError, TraceInput } from '@cinetrace/contracts';
import { OtlpEncoding, OtlpValueError, checkOtlpPayloadAlone, decodeOtlpProtobuf, otlpToTraces, refuseInvalidSpans } from '@cinetrace/traces';
import { parseJsonText, utf8Text } from '../http/json-body-parser';

/**
 * An export request decoded, mapped to traces and checked as far as that needs no store;
 * what crosses back from the decoding thread (plain data: an error is its code and words).
 */
export type OtlpDecoded =
  | {
      ok: true;
      /** Validated traces, each with at least one span. */
      traces: TraceInput[];
      /** Spans refused while mapping or validating, and the words for the first refusals. */
      rejectedSpans: number;
      refusals: string[];
      /** Traces none of whose spans were kept. */
      refusedTraces: number;
      /** Every trace passed validation as the mapping made it (nothing refused or dropped): mapping the bytes again gives `traces`. */
      asMapped: boolean;
    }
  | { ok: false; code: ErrorCode; detail: string; errors?: FieldError[] };

/** The bytes of an export request and how to read them. */
export interface OtlpExport {
  encoding: OtlpEncoding;
  bytes: Uint8Array;
  maxJsonDepth: number;
}

/**
 * Decodes an export request (protobuf, or OTLP/JSON under the gateway's JSON rules), maps
 * its spans to trace payloads (libs/traces) and validates each as POST /api/v1/traces would,
 * refusing the spans validation names. Runs on a decoding thread (OtlpDecodePool), so a
 * large export never holds the event loop.
 */
export async function decodeOtlpExport({ encoding, bytes, maxJsonDepth }: OtlpExport): Promise<OtlpDecoded> {
  try {
    const request = encoding === 'protobuf' ? decodeOtlpProtobuf(bytes) : parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxJsonDepth);
    const mapping = otlpToTraces(request);
    const refusals = mapping.rejected.map((r) => (r.spanId ? `span ${r.spanId}: ${r.message}` : r.message));
    let rejectedSpans = mapping.rejected.length;
    const traces: TraceInput[] = [];
    let asMapped = !mapping.rejected.length;
    for (const { trace } of mapping.payloads) {
      // Nearly every trace passes as it is: checked once here, without a promise per trace.
      const alone = checkOtlpPayloadAlone(trace);
      if (alone.ok) {
        traces.push(alone.trace);
        continue;
      }
      // Spans refused, or the trace fields its root gave dropped (then with no span refused).
      asMapped = false;
      const checked = await refuseInvalidSpans(trace, checkOtlpPayloadAlone, alone);
      rejectedSpans += checked.rejected;
      refusals.push(...checked.messages);
      if (checked.trace) traces.push(checked.trace);
    }
    return { ok: true, traces, rejectedSpans, refusals, refusedTraces: mapping.payloads.length - traces.length, asMapped };
  } catch (err) {
    if (err instanceof OtlpValueError) return { ok: false, code: ErrorCode.MalformedRequest, detail: `The body is not an ExportTraceServiceRequest: ${err.message}` };
    if (err instanceof DomainError) return { ok: false, code: err.code, detail: err.detail, errors: err.errors };
    throw err;
  }
}

function parseJson(bytes: Buffer, maxJsonDepth: number): unknown {
  const text = utf8Text(bytes);
  if (text.trim() === '') throw new DomainError(ErrorCode.InvalidJson, 'The body is empty; send an ExportTraceServiceRequest');
  return parseJsonText(text, maxJsonDepth);
}
