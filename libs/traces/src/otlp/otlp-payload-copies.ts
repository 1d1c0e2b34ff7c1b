import type { SpanInput, TraceIngestMessage, TraceInput } from '@cinetrace/contracts';
import { MIN_COPY_LENGTH } from '../attribute-copies';
import { hasVideoOutput, joinsSystemInstructions, movedNote, payloadSource } from './otlp-span-semantics';

/**
 * An OTLP span's input and output are made from its attributes (`input.value`, the GenAI
 * messages), which OTLP keeps too (API.md), so each payload would travel the trace stream
 * twice. The field is left out and trace-ingest makes it again from the attribute, exactly as
 * the mapping made it (the attribute's string, or that string parsed): nothing is compared
 * or serialized to find the copies, and the record keeps the text the exporter sent.
 */

/** On the trace stream: [span id, field, attribute key, text | json], for each field left out. */
export type StreamPayloadCopies = NonNullable<TraceIngestMessage['payloadCopies']>;
type PayloadCopy = StreamPayloadCopies[number];
type PayloadColumn = PayloadCopy[1];

/**
 * A trace otlpToTraces mapped (and validation kept) as it goes on the stream: the spans whose
 * input or output an attribute holds without them (new span objects: the caller's are not
 * changed), and which fields were left out. The trace's own input and output are its root
 * span's (withRootFields): left out too when that span's are. Only for such traces: for a
 * trace a client wrote, an attribute named `input.value` says nothing of its input.
 */
export function leaveOutOtlpPayloads(trace: TraceInput): { trace: TraceInput; copies?: StreamPayloadCopies } {
  let copies: StreamPayloadCopies | undefined;
  let spans: SpanInput[] | undefined;
  let traceCopies: StreamPayloadCopies | undefined;
  for (let i = 0; i < trace.spans.length; i++) {
    const span = trace.spans[i];
    const input = copyOf(span, 'input');
    const output = copyOf(span, 'output');
    if (!input && !output) continue;
    spans ??= trace.spans.slice();
    // JSON.stringify leaves out an undefined field, as if it were not there.
    const sent: SpanInput = { ...span };
    if (input) sent.input = undefined;
    if (output) sent.output = undefined;
    spans[i] = sent;
    if (input) (copies ??= []).push([span.id, 'input', ...input]);
    if (output) (copies ??= []).push([span.id, 'output', ...output]);
    // The very value, not an equal one: the trace's field was taken from this span.
    if (input && trace.input !== undefined && span.input === trace.input) (traceCopies ??= []).push([span.id, 'input', ...input, 'trace']);
    if (output && trace.output !== undefined && span.output === trace.output) (traceCopies ??= []).push([span.id, 'output', ...output, 'trace']);
  }
  if (!spans) return { trace };
  const sentTrace: TraceInput = { ...trace, spans };
  for (const copy of traceCopies ?? []) {
    if (sentTrace[copy[1]] === undefined) continue; // two spans held the same value: one copy is enough
    sentTrace[copy[1]] = undefined;
    copies!.push(copy);
  }
  return { trace: sentTrace, copies };
}

/**
 * The attribute a span's field was made from, and how: otlpToTraces took it from the first
 * source holding a value, as that string or, when it parsed as JSON, as what it parsed to. A
 * string field equal to the attribute is `text`; any other field came from parsing it (`json`),
 * unless the attribute now holds the note of a payload moved out of oversized attributes.
 */
function copyOf(span: SpanInput, column: PayloadColumn): [key: string, form: 'text' | 'json'] | undefined {
  const value = span[column];
  const attributes = span.attributes;
  if (value === undefined || value === null || !attributes) return undefined;
  if (column === 'output' && hasVideoOutput(attributes)) return undefined;
  // An input that begins with the system instructions is made of two attributes: it travels as it is.
  if (column === 'input' && joinsSystemInstructions(attributes, value)) return undefined;
  const key = payloadSource(attributes, column);
  const text = key === undefined ? undefined : attributes[key];
  if (key === undefined || typeof text !== 'string' || text.length < MIN_COPY_LENGTH) return undefined;
  if (typeof value === 'string') return value === text ? [key, 'text'] : undefined;
  return text === movedNote(key) ? undefined : [key, 'json'];
}

/**
 * Puts back, in a trace read from the stream, each field leaveOutOtlpPayloads left out. The
 * gateway names only attributes the trace holds: one that is missing means the record is not
 * what the gateway sent, and throws (the consumer sets the record aside).
 */
export function restoreOtlpPayloads(trace: TraceInput, copies: StreamPayloadCopies): void {
  const spans = new Map(trace.spans.map((span) => [span.id, span]));
  for (const [spanId, column, key, form, of] of copies) {
    const span = spans.get(spanId);
    // The trace's field is the span's, put back by the copy before this one: the same value, not made again.
    if (of === 'trace' && span && span[column] !== undefined) {
      trace[column] = span[column];
      continue;
    }
    const text = span?.attributes && Object.hasOwn(span.attributes, key) ? span.attributes[key] : undefined;
    if (!span || typeof text !== 'string') throw new Error(`the record names attribute ${JSON.stringify(key)} of span ${spanId} as its ${column}, which it does not hold`);
    const value: unknown = form === 'json' ? JSON.parse(text) : text;
    if (of === 'trace') trace[column] = value;
    else span[column] = value;
  }
}
