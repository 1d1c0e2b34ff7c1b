import { DomainError, ErrorCode, FieldError, ProjectContext, TraceInput } from '@cinetrace/contracts';
import { OtlpValueError, PartialSuccess, ROOT_TRACE_FIELDS, decodeOtlpProtobuf, otlpToTraces, withRootFields } from '@cinetrace/traces';
import { countTracesRejected } from '@cinetrace/metrics';
import { Injectable } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';
import { parseJsonText, utf8Text } from '../http/json-body-parser';
import { TraceIngestor } from '../traces/trace-ingestor';
import type { OtlpBody } from './otlp-body';

/** How many refusals the partial_success message names (the count says how many there were). */
const MESSAGES_NAMED = 5;
const SPAN_PATH = /^spans\[(\d+)\]/;

/**
 * OTLP export requests into the trace stream: decodes the body, maps its spans to trace
 * payloads (libs/traces), validates each as POST /api/v1/traces would (the same limits),
 * refuses the spans validation names (rejected_spans) and publishes the rest through the
 * same TraceIngestor, so both run modes store them exactly like JSON traces.
 */
@Injectable()
export class OtlpIngest {
  constructor(
    private readonly ingestor: TraceIngestor,
    private readonly env: GatewayEnv,
  ) {}

  async export(ctx: ProjectContext, body: OtlpBody): Promise<PartialSuccess> {
    const mapping = this.map(body);
    const refusals = mapping.rejected.map((r) => (r.spanId ? `span ${r.spanId}: ${r.message}` : r.message));
    let rejectedSpans = mapping.rejected.length;
    const checked = await Promise.all(mapping.payloads.map((p) => this.checkSpans(ctx, p.trace)));
    const valid: TraceInput[] = [];
    for (const result of checked) {
      rejectedSpans += result.rejected;
      refusals.push(...result.messages);
      if (result.trace) valid.push(result.trace);
    }
    // Spans refused here, and traces none of whose spans were kept (what reaches the stream counts as accepted).
    if (rejectedSpans) countTracesRejected('invalid', checked.length - valid.length, rejectedSpans);
    // Throws (503 with Retry-After, as POST /traces) when the stream cannot take them: the exporter retries the whole export.
    if (valid.length) await this.ingestor.publish(ctx, valid);
    return { rejectedSpans, errorMessage: summary(rejectedSpans, refusals) };
  }

  private map(body: OtlpBody) {
    try {
      const request = body.encoding === 'protobuf' ? decodeOtlpProtobuf(body.bytes) : this.parseJson(body.bytes);
      return otlpToTraces(request);
    } catch (err) {
      if (err instanceof OtlpValueError) throw new DomainError(ErrorCode.MalformedRequest, `The body is not an ExportTraceServiceRequest: ${err.message}`);
      throw err;
    }
  }

  private parseJson(bytes: Buffer): unknown {
    const text = utf8Text(bytes);
    if (text.trim() === '') throw new DomainError(ErrorCode.InvalidJson, 'The body is empty; send an ExportTraceServiceRequest');
    return parseJsonText(text, this.env.MAX_JSON_DEPTH);
  }

  /**
   * Validates a payload; the spans its errors name are refused and the rest checked again
   * (a refused span may have been the parent others named, so this repeats, a few times at most).
   */
  private async checkSpans(ctx: ProjectContext, raw: { id: string; spans: Array<Record<string, unknown>> } & Record<string, unknown>) {
    const messages: string[] = [];
    let rejected = 0;
    let payload = raw;
    for (let round = 0; round < 4 && payload.spans.length; round++) {
      const checked = await this.ingestor.checkUncounted(ctx, payload, undefined, { allowUnknownParents: true });
      if (checked.ok) return { trace: checked.trace, rejected, messages };
      const refused = spansNamed(checked.errors);
      if (refused.size === 0) {
        // An error of a trace field taken from the root span: the trace goes without them.
        const derived = ROOT_TRACE_FIELDS.filter((f) => f in payload);
        if (derived.length && round < 3) {
          payload = { ...payload };
          for (const field of derived) delete payload[field];
          continue;
        }
        messages.push(`trace ${raw.id}: ${describe(checked.errors[0])}`);
        return { trace: undefined, rejected: rejected + payload.spans.length, messages };
      }
      for (const [index, error] of refused) messages.push(`span ${String(payload.spans[index].id)}: ${describe(error)}`);
      rejected += refused.size;
      payload = withRootFields({ ...payload, spans: payload.spans.filter((_, i) => !refused.has(i)) });
    }
    if (payload.spans.length) {
      messages.push(`trace ${raw.id}: its spans could not be validated`);
      rejected += payload.spans.length;
    }
    return { trace: undefined, rejected, messages };
  }
}

/** The spans (by index) that validation errors name, each with its first error, in the path's own words (`spans[3].name`). */
function spansNamed(errors: FieldError[]): Map<number, FieldError> {
  const named = new Map<number, FieldError>();
  for (const error of errors) {
    const match = SPAN_PATH.exec(error.path);
    if (match && !named.has(Number(match[1]))) named.set(Number(match[1]), { ...error, path: error.path.slice(match[0].length).replace(/^\./, '') });
  }
  return named;
}

const describe = (error: FieldError) => (error.path ? `${error.path} ${error.message}` : error.message);

function summary(rejectedSpans: number, refusals: string[]): string {
  if (!rejectedSpans) return '';
  const named = refusals.slice(0, MESSAGES_NAMED).join('; ');
  const more = refusals.length > MESSAGES_NAMED ? `; and ${refusals.length - MESSAGES_NAMED} more` : '';
  return `${rejectedSpans} span(s) rejected: ${named}${more}`.slice(0, 2000);
}
