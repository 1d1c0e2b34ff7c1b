import { COPY_PLACEHOLDER, type CopiedColumn, copiedColumn, type PayloadText } from './attribute-copies';
import type { StoredSpan } from './stored-trace';

/** The JSON texts of a stored span's JSON fields ('null' for null), as its JSON text holds them. */
export interface SpanFieldTexts {
  input: string;
  output: string;
  usage: string;
  attributes: string;
  events: string;
  /** The attributes as their column stores them: those repeating the input or output hold the placeholder (attribute-copies). */
  storedAttributes: string;
  /** Which attributes repeat which field; null when none does. */
  attributeCopies: Record<string, CopiedColumn> | null;
}

const fieldTexts = new WeakMap<StoredSpan, SpanFieldTexts>();

const text = (value: unknown) => JSON.stringify(value) ?? 'null';

/**
 * `JSON.stringify(span)`, written from the texts of its JSON fields, which are kept for the
 * span's row (`spanFieldTexts`): merging measured each span's JSON and writing its row
 * serialized the same input, output, usage, attributes and events again, ~a sixth of
 * storing a 10-span trace. The fields in StoredSpan's order, as every StoredSpan is built
 * (mergeSpan's base, a row's decodeSpan); a spec holds the text to JSON.stringify's.
 */
export function storedSpanJson(span: StoredSpan): string {
  const input = text(span.input);
  const output = text(span.output);
  const attributes = attributeTexts(span.attributes, payload(span.input, input), payload(span.output, output));
  const texts: SpanFieldTexts = { input, output, usage: text(span.usage), events: text(span.events), ...attributes };
  fieldTexts.set(span, texts);
  return (
    `{"id":${text(span.id)},"parentId":${text(span.parentId)},"name":${text(span.name)},"kind":${text(span.kind)},"status":${text(span.status)},` +
    `"statusMessage":${text(span.statusMessage)},"startTime":${text(span.startTime)},"endTime":${text(span.endTime)},"model":${text(span.model)},` +
    `"input":${texts.input},"output":${texts.output},"usage":${texts.usage},"costUsd":${text(span.costUsd)},"attributes":${texts.attributes},"events":${texts.events}}`
  );
}

/** The field texts storedSpanJson wrote for this span object, if it did (spans are not changed after a merge). */
export const spanFieldTexts = (span: StoredSpan): SpanFieldTexts | undefined => fieldTexts.get(span);

const payload = (value: unknown, json: string): PayloadText => ({ value, text: json === 'null' ? null : json });

/**
 * The attributes' JSON text, and as stored: with copies of the input or output (OTLP's
 * `input.value`, …) written as the placeholder. With copies the text is written key by key,
 * so that neither is a second `JSON.stringify` of every attribute, and a copy of a string
 * payload reuses that payload's text. Key order and skipped values as JSON.stringify's.
 */
function attributeTexts(
  attributes: StoredSpan['attributes'],
  input: PayloadText,
  output: PayloadText,
): Pick<SpanFieldTexts, 'attributes' | 'storedAttributes' | 'attributeCopies'> {
  let copies: Record<string, CopiedColumn> | null = null;
  if (attributes && (input.text !== null || output.text !== null)) {
    for (const key in attributes) {
      const column = copiedColumn(attributes[key], input, output);
      if (column) (copies ??= Object.create(null) as Record<string, CopiedColumn>)[key] = column;
    }
  }
  if (!copies) {
    const whole = text(attributes);
    return { attributes: whole, storedAttributes: whole, attributeCopies: null };
  }
  const whole: string[] = [];
  const stored: string[] = [];
  for (const key in attributes) {
    const value = attributes![key];
    const column = copies[key];
    const source = column === 'input' ? input : output;
    const valueText = column && typeof source.value === 'string' ? source.text! : JSON.stringify(value);
    if (valueText === undefined) continue;
    const keyText = JSON.stringify(key);
    whole.push(`${keyText}:${valueText}`);
    stored.push(`${keyText}:${column ? JSON.stringify(COPY_PLACEHOLDER) : valueText}`);
  }
  return { attributes: `{${whole.join(',')}}`, storedAttributes: `{${stored.join(',')}}`, attributeCopies: copies };
}
