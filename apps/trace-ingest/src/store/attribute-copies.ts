import { COPY_PLACEHOLDER, type CopiedColumn, copiedColumn, copiedValue, type PayloadText } from '@cinetrace/traces';

/**
 * A span's attributes that repeat its input or output (see libs/traces attribute-copies) are
 * stored once: the attribute as a placeholder and `attribute_copies` naming the column it
 * repeats ({ "input.value": "input" }); reading puts the value back, so answers are unchanged.
 * OTLP spans often repeat their input and output as attributes, so this saves much of their storage.
 */
export type AttributeCopies = Record<string, CopiedColumn>;

/** The attributes to store, and which of them were taken out as copies. */
export function withoutCopies(
  attributes: Record<string, unknown> | null | undefined,
  input: PayloadText,
  output: PayloadText,
): { attributes: Record<string, unknown> | null | undefined; copies: AttributeCopies | null } {
  if (!attributes || (input.text === null && output.text === null)) return { attributes, copies: null };
  let copies: AttributeCopies | null = null;
  let kept = attributes;
  for (const key in attributes) {
    const column = copiedColumn(attributes[key], input, output);
    if (!column) continue;
    if (!copies) {
      copies = {};
      kept = { ...attributes };
    }
    copies[key] = column;
    kept[key] = COPY_PLACEHOLDER;
  }
  return { attributes: kept, copies };
}

/** Stored attributes with their copies put back (`payloadText`: the stored JSON text of input and output). */
export function withCopies(attributes: Record<string, unknown>, copies: AttributeCopies, payloadText: Record<CopiedColumn, string | null>): Record<string, unknown> {
  for (const key in copies) {
    const text = payloadText[copies[key]];
    if (text !== null) attributes[key] = copiedValue(text);
  }
  return attributes;
}
