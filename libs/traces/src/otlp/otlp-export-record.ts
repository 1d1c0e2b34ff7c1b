import type { TraceInput } from '@cinetrace/contracts';
import { decodeOtlpProtobuf } from './otlp-codec';
import { checkOtlpPayloadAlone } from './otlp-span-checks';
import { otlpToTraces } from './otlp-to-traces';

/**
 * The largest OTLP/protobuf export that crosses the trace stream as its own bytes: trace-ingest
 * decodes and maps it on its event loop, a few milliseconds at most. Larger exports cross as
 * the traces they mapped to.
 */
export const MAX_EXPORT_RECORD_BYTES = 256 * 1024;

/**
 * Whether an export the gateway decoded can cross the trace stream as its bytes rather than
 * as the trace it mapped to: protobuf, not too large, and one trace (nothing split). The
 * caller also makes sure that trace is exactly what mapping and validating the bytes gives
 * (no span refused, no trace field dropped), as traceOfExportRecord will do again.
 */
export const exportTravelsAsBytes = (encoding: string, bytes: Uint8Array, traces: readonly TraceInput[]): boolean =>
  encoding === 'protobuf' && bytes.byteLength <= MAX_EXPORT_RECORD_BYTES && traces.length === 1;

/**
 * The trace an export record's bytes hold, mapped and validated exactly as the gateway did
 * before it accepted them. Throws when the bytes are not one valid trace of id `traceId`: the
 * record is not what the gateway sent, and the consumer sets it aside.
 */
export function traceOfExportRecord(bytes: Uint8Array, traceId: string): TraceInput {
  const mapping = otlpToTraces(decodeOtlpProtobuf(bytes));
  const payload = mapping.payloads.length === 1 && !mapping.rejected.length ? mapping.payloads[0].trace : undefined;
  if (!payload || payload.id !== traceId) throw new Error(`the export record of trace ${traceId} does not hold that one trace`);
  const checked = checkOtlpPayloadAlone(payload);
  if (!checked.ok) throw new Error(`the export record of trace ${traceId} does not validate: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return checked.trace;
}
