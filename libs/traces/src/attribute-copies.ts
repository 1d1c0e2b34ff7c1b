import type { TraceIngestMessage, TraceInput } from '@cinetrace/contracts';
import { setOwn } from './set-own';

/**
 * Attributes that repeat a span's input or output. OTLP keeps every original attribute
 * (API.md), so a span mapped from `input.value` or `gen_ai.input.messages` holds its payload
 * twice: as `input` and as that attribute. Such a copy is stored once (span-json): the
 * attribute holds a placeholder (its key keeps its place) and a note names the field it repeats.
 * (On the trace stream the gateway leaves out the field instead: otlp/otlp-payload-copies.)
 */

/** Which span field an attribute repeats. */
export type CopiedColumn = 'input' | 'output';

/** What a copied attribute holds while its value is left out. */
export const COPY_PLACEHOLDER = 0;

/** Shorter values are not worth a second look, on the trace stream (otlp-payload-copies) or in storage. */
export const MIN_COPY_LENGTH = 64;

/** A payload field: its value, and its JSON text (null when it has none). */
export interface PayloadText {
  value: unknown;
  text: string | null;
}

/**
 * The field an attribute repeats, if it does: a string equal to the payload as the original
 * attribute gave it (the payload itself when that is a string, else its JSON text).
 */
export function copiedColumn(value: unknown, input: PayloadText, output: PayloadText): CopiedColumn | undefined {
  if (typeof value !== 'string' || value.length < MIN_COPY_LENGTH) return undefined;
  if (repeats(value, input)) return 'input';
  if (repeats(value, output)) return 'output';
  return undefined;
}

const repeats = (value: string, payload: PayloadText) => (typeof payload.value === 'string' ? value === payload.value : value === payload.text);

/** The value a copied attribute had, from the payload's JSON text (a string payload was the attribute itself). */
export function copiedValue(payloadText: string): string {
  return payloadText.charCodeAt(0) === 0x22 ? (JSON.parse(payloadText) as string) : payloadText;
}

/** On the trace stream, from gateways before payloadCopies: [span id, attribute key, the field it repeats], for each attribute left out. */
export type StreamAttributeCopies = NonNullable<TraceIngestMessage['attributeCopies']>;

/**
 * Puts the copies back into a trace read from the stream, so that it is the trace the gateway
 * validated: for records gateways wrote before they left out payloads instead (restoreOtlpPayloads).
 */
export function restoreAttributeCopies(trace: TraceInput, copies: StreamAttributeCopies): void {
  const spans = new Map(trace.spans.map((span) => [span.id, span]));
  for (const [spanId, key, column] of copies) {
    const span = spans.get(spanId);
    const attributes = span?.attributes;
    if (!span || !attributes || !Object.hasOwn(attributes, key) || attributes[key] !== COPY_PLACEHOLDER) continue;
    const payload = span[column];
    // What copiedValue would make of the payload's JSON text, without writing and parsing a string payload.
    if (payload !== undefined) setOwn(attributes, key, typeof payload === 'string' ? payload : JSON.stringify(payload));
  }
}
