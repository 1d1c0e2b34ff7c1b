import type { StoredSpan } from './stored-trace';

/** The JSON texts of a stored span's JSON fields ('null' for null), as its JSON text holds them. */
export interface SpanFieldTexts {
  input: string;
  output: string;
  usage: string;
  attributes: string;
  events: string;
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
  const texts: SpanFieldTexts = { input: text(span.input), output: text(span.output), usage: text(span.usage), attributes: text(span.attributes), events: text(span.events) };
  fieldTexts.set(span, texts);
  return (
    `{"id":${text(span.id)},"parentId":${text(span.parentId)},"name":${text(span.name)},"kind":${text(span.kind)},"status":${text(span.status)},` +
    `"statusMessage":${text(span.statusMessage)},"startTime":${text(span.startTime)},"endTime":${text(span.endTime)},"model":${text(span.model)},` +
    `"input":${texts.input},"output":${texts.output},"usage":${texts.usage},"costUsd":${text(span.costUsd)},"attributes":${texts.attributes},"events":${texts.events}}`
  );
}

/** The field texts storedSpanJson wrote for this span object, if it did (spans are not changed after a merge). */
export const spanFieldTexts = (span: StoredSpan): SpanFieldTexts | undefined => fieldTexts.get(span);
