import { DomainError, Patterns, ProjectContext, SpanParentsRequest, TraceInput } from '@cinetrace/contracts';
import { BusClient } from '@cinetrace/bus';
import { CheckedOtlpTrace, OtlpTracePayload, PartialSuccess, checkSpanParents, exportTravelsAsBytes, foreignParentIds, refuseInvalidSpans } from '@cinetrace/traces';
import { countTracesRejected } from '@cinetrace/metrics';
import { Inject, Injectable } from '@nestjs/common';
import { TraceIngestor } from '../traces/trace-ingestor';
import type { OtlpBody } from './otlp-body';
import { OtlpDecodePool, type OtlpDecoder } from './otlp-decode-pool';
import { ProjectExportsInFlight } from './project-exports-in-flight';

/** How many refusals the partial_success message names (the count says how many there were). */
const MESSAGES_NAMED = 5;
const OTLP_PARENT_RULES = { allowUnknownParents: true };

/**
 * OTLP export requests into the trace stream: a decoding thread decodes the body, maps its
 * spans to trace payloads and validates each as POST /api/v1/traces would (the same limits),
 * refusing the spans validation names (rejected_spans); here each trace's parents outside
 * the export are checked against the stored trace, and the rest is published through the
 * same TraceIngestor, so both run modes store them exactly like JSON traces.
 */
@Injectable()
export class OtlpIngest {
  constructor(
    private readonly ingestor: TraceIngestor,
    private readonly bus: BusClient,
    @Inject(OtlpDecodePool) private readonly decoder: OtlpDecoder,
    private readonly inFlight: ProjectExportsInFlight,
  ) {}

  /** Takes one of the project's exports in flight (OTLP_PROJECT_EXPORTS) until its answer, or throws 429: call before the body is read. */
  admit(ctx: ProjectContext): () => void {
    return this.inFlight.take(ctx.projectId);
  }

  /** Throws what an export of `bytes` (its Content-Length) would be answered now whatever it holds: its project's share of the decoding threads taken. */
  refuseBeforeReading(ctx: ProjectContext, bytes: number): void {
    const refusal = this.decoder.refusalBeforeReading(ctx.projectId, bytes);
    if (refusal) throw refusal;
  }

  async export(ctx: ProjectContext, body: OtlpBody): Promise<PartialSuccess> {
    // Unless the stream takes the bytes themselves, their memory serves the next export once this one is answered.
    let bytesKept = false;
    try {
      const decoded = await this.decoder.decode(ctx.projectId, body);
      if (!decoded.ok) throw new DomainError(decoded.code, decoded.detail, decoded.errors);
      const refusals = decoded.refusals;
      let rejectedSpans = decoded.rejectedSpans;
      let refusedTraces = decoded.refusedTraces;
      // Most exports name no parent outside themselves: then nothing is asked of the store.
      const valid: TraceInput[] = [];
      const foreign = decoded.traces.map(foreignParentIds);
      const checked = foreign.some((ids) => ids.length)
        ? await Promise.all(decoded.traces.map((trace, i) => this.checkStoredParents(ctx, trace, foreign[i])))
        : decoded.traces.map((trace): CheckedOtlpTrace => ({ trace, rejected: 0, messages: [] }));
      for (const result of checked) {
        rejectedSpans += result.rejected;
        refusals.push(...result.messages);
        if (result.trace) valid.push(result.trace);
        else refusedTraces++;
      }
      // Spans refused, and traces none of whose spans were kept (what reaches the stream counts as accepted).
      if (rejectedSpans) countTracesRejected('invalid', refusedTraces, rejectedSpans);
      // Throws (503 with Retry-After, as POST /traces) when the stream cannot take them: the exporter retries the whole export.
      // An export that is one whole valid trace crosses the stream as its bytes; otherwise a span
      // input or output made from an attribute (input.value …) travels once, as that attribute.
      // Only while the one trace is exactly what the bytes map to: validated as mapped, kept as it is by the parents' check.
      const keptAsMapped = decoded.asMapped && valid.length === 1 && valid[0] === decoded.traces[0];
      const whole = keptAsMapped && exportTravelsAsBytes(body.encoding, body.bytes, decoded.traces);
      // Bytes handed to the stream are its own from here, whatever publish answers.
      bytesKept = whole;
      if (valid.length) await this.ingestor.publish(ctx, valid, { fromOtlp: true, awaited: false, ...(whole ? { exportBytes: body.bytes } : {}) });
      return { rejectedSpans, errorMessage: summary(rejectedSpans, refusals) };
    } finally {
      if (!bytesKept) this.decoder.release(body);
    }
  }

  /**
   * A validated trace whose spans name parents outside the export (`foreign`, its
   * foreignParentIds): a cycle through the stored spans refuses the spans in it, and the rest
   * is checked again (asking the store each round).
   */
  private async checkStoredParents(ctx: ProjectContext, trace: TraceInput, foreign: string[]): Promise<CheckedOtlpTrace> {
    if (!foreign.length) return { trace, rejected: 0, messages: [] };
    const request: SpanParentsRequest = { ctx, traceId: trace.id, spanIds: foreign };
    const stored = new Map(Object.entries(await this.bus.request(Patterns.SpanParents, request)));
    if (!checkSpanParents(trace, stored, '', OTLP_PARENT_RULES).length) return { trace, rejected: 0, messages: [] };
    return refuseInvalidSpans(trace as unknown as OtlpTracePayload['trace'], (payload) => this.ingestor.checkUncounted(ctx, payload, undefined, OTLP_PARENT_RULES));
  }
}

function summary(rejectedSpans: number, refusals: string[]): string {
  if (!rejectedSpans) return '';
  const named = refusals.slice(0, MESSAGES_NAMED).join('; ');
  const more = refusals.length > MESSAGES_NAMED ? `; and ${refusals.length - MESSAGES_NAMED} more` : '';
  return `${rejectedSpans} span(s) rejected: ${named}${more}`.slice(0, 2000);
}
