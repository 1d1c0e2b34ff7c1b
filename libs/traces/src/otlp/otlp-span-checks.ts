import { FieldError, TraceInput } from '@cinetrace/contracts';
import { checkSpanParents, validateTrace } from '../validate-trace';
import { ROOT_TRACE_FIELDS, OtlpTracePayload, withRootFields } from './otlp-to-traces';

/** What a check of one payload says: the trace as validated, or the fields at fault. */
export type OtlpCheck = { ok: true; trace: TraceInput } | { ok: false; errors: FieldError[] };

/** A trace payload after its spans were checked: the trace to publish (if any span is left), and the spans refused, each named. */
export interface CheckedOtlpTrace {
  trace?: TraceInput;
  rejected: number;
  messages: string[];
}

const SPAN_PATH = /^spans\[(\d+)\]/;
const MAX_ROUNDS = 4;

/**
 * The check that needs no store: validation as POST /api/v1/traces does it, and the parent
 * links within the payload (a span naming itself, a cycle). Parents outside the payload are
 * allowed (OTLP exporters send a child before its parent); a cycle through stored spans is
 * the gateway's to find, since only trace-ingest knows them.
 */
export function checkOtlpPayloadAlone(payload: unknown): OtlpCheck {
  const checked = validateTrace(payload);
  if (!checked.ok) return checked;
  const errors = checkSpanParents(checked.trace, new Map(), '', { allowUnknownParents: true });
  return errors.length ? { ok: false, errors } : checked;
}

/**
 * Checks a payload with `check`; the spans its errors name are refused and the rest checked
 * again (a refused span may have been the parent others named, so this repeats, a few times
 * at most). `firstCheck`: check(raw)'s result, when the caller has it already. An error of a trace field taken from the root span sends the trace without them.
 */
export async function refuseInvalidSpans(
  raw: OtlpTracePayload['trace'],
  check: (payload: OtlpTracePayload['trace']) => OtlpCheck | Promise<OtlpCheck>,
  firstCheck?: OtlpCheck,
): Promise<CheckedOtlpTrace> {
  const messages: string[] = [];
  let rejected = 0;
  let payload = raw;
  for (let round = 0; round < MAX_ROUNDS && payload.spans.length; round++) {
    // The first round's result, when the caller already checked the payload as it came.
    const checked = round === 0 && firstCheck ? firstCheck : await check(payload);
    if (checked.ok) return { trace: checked.trace, rejected, messages };
    const refused = spansNamed(checked.errors);
    if (refused.size === 0) {
      // An error of a trace field taken from the root span: the trace goes without them.
      const derived = ROOT_TRACE_FIELDS.filter((f) => f in payload);
      if (derived.length && round < MAX_ROUNDS - 1) {
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
