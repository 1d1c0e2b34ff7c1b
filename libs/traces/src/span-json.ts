import { COPY_PLACEHOLDER, type CopiedColumn, copiedColumn, type PayloadText } from './attribute-copies';
import { setOwn } from './set-own';
import type { StoredSpan } from './stored-trace';

/** The JSON texts of a stored span's JSON fields ('null' for null), as its row stores them. */
export interface SpanFieldTexts {
  input: string;
  output: string;
  usage: string;
  events: string;
  /** The attributes as their column stores them: those repeating the input or output hold the placeholder (attribute-copies). */
  storedAttributes: string;
  /** Which attributes repeat which field; null when none does. */
  attributeCopies: Record<string, CopiedColumn> | null;
}

/** What a merge needs of a span's JSON, without writing the copies of its input and output into it a second time. */
export interface SpanMeasure {
  /** Equal for two spans exactly when their JSON texts are (`JSON.stringify(span)` itself when no attribute repeats the input or output). */
  identity: string;
  /** `Buffer.byteLength(JSON.stringify(span))`: what the span bytes' limit counts. */
  bytes: number;
}

const fieldTexts = new WeakMap<StoredSpan, SpanFieldTexts>();

/**
 * A field's JSON text. Nulls and numbers, most of a span's fields, are written here, cheaper
 * than a JSON.stringify call for each. A number's text is JSON's (`String` and
 * JSON.stringify both write ECMAScript's Number::toString); one that is not finite is `null`.
 */
const text = (value: unknown): string => {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value) ?? 'null';
};

/**
 * A span's JSON measured from the texts of its JSON fields, which are kept for the span's
 * row (`spanFieldTexts`), so the same input, output, usage, attributes and events are not
 * serialized twice. The fields in StoredSpan's order, as every StoredSpan is built
 * (mergeSpan's base, a row's decodeSpan). Attributes repeating the input or output (OTLP's `input.value`, …) are
 * written as stored, with the placeholder, and their own bytes added: serializing them once
 * more (a JSON text inside a string, every quote escaped) is dear.
 */
export function measureSpan(span: StoredSpan): SpanMeasure {
  const input = payload(span.input, text(span.input));
  const output = payload(span.output, text(span.output));
  const { storedAttributes, attributeCopies } = attributeTexts(span.attributes, input, output);
  const texts: SpanFieldTexts = {
    input: input.text ?? 'null',
    output: output.text ?? 'null',
    usage: text(span.usage),
    events: text(span.events),
    storedAttributes,
    attributeCopies,
  };
  fieldTexts.set(span, texts);
  const json =
    `{"id":${text(span.id)},"parentId":${text(span.parentId)},"name":${text(span.name)},"kind":${text(span.kind)},` +
    `"status":${text(span.status)},"statusMessage":${text(span.statusMessage)},"startTime":${text(span.startTime)},` +
    `"endTime":${text(span.endTime)},"model":${text(span.model)},"input":${texts.input},"output":${texts.output},"usage":${texts.usage},` +
    `"costUsd":${text(span.costUsd)},"costSource":${text(span.costSource)},"attributes":${storedAttributes},"events":${texts.events}}`;
  let bytes = Buffer.byteLength(json);
  if (!attributeCopies) return { identity: json, bytes };
  for (const key in attributeCopies) bytes += copyJsonBytes(attributeCopies[key] === 'input' ? input : output) - PLACEHOLDER_BYTES;
  // The stored text cannot tell a copy from an attribute that holds the placeholder's value: the copies tell.
  return { identity: `${json}\n${JSON.stringify(attributeCopies)}`, bytes };
}

/** The field texts measureSpan wrote for this span object, if it did (spans are not changed after a merge). */
export const spanFieldTexts = (span: StoredSpan): SpanFieldTexts | undefined => fieldTexts.get(span);

const payload = (value: unknown, json: string): PayloadText => ({ value, text: json === 'null' ? null : json });

const PLACEHOLDER_BYTES = JSON.stringify(COPY_PLACEHOLDER).length;
const QUOTE = '"';
const BACKSLASH = '\\';

/**
 * The UTF-8 bytes of a copied attribute's JSON. A copy of a string payload is that string,
 * whose JSON is the payload's text. Any other payload's copy is its JSON text as a string:
 * JSON.stringify's text has no control characters or lone surrogates left unescaped, so
 * its JSON adds exactly two quotes and a backslash before each quote and backslash.
 */
function copyJsonBytes(source: PayloadText): number {
  const json = source.text!;
  if (typeof source.value === 'string') return Buffer.byteLength(json);
  return Buffer.byteLength(json) + 2 + occurrences(json, QUOTE) + occurrences(json, BACKSLASH);
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** The attributes as stored, with copies of the input or output written as the placeholder, and which those are. */
function attributeTexts(attributes: StoredSpan['attributes'], input: PayloadText, output: PayloadText): Pick<SpanFieldTexts, 'storedAttributes' | 'attributeCopies'> {
  let copies: Record<string, CopiedColumn> | null = null;
  if (attributes && (input.text !== null || output.text !== null)) {
    for (const key in attributes) {
      const column = copiedColumn(attributes[key], input, output);
      if (column) (copies ??= Object.create(null) as Record<string, CopiedColumn>)[key] = column;
    }
  }
  if (!copies) return { storedAttributes: text(attributes), attributeCopies: null };
  // A spread keeps every key in its place (an own `__proto__` too); setOwn replaces values in place.
  const stored: Record<string, unknown> = { ...attributes };
  for (const key in copies) setOwn(stored, key, COPY_PLACEHOLDER);
  return { storedAttributes: text(stored), attributeCopies: copies };
}
