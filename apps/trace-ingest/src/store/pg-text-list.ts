/** Between two texts of a list. JSON.stringify escapes every control character, so no JSON text holds one. */
export const TEXT_SEPARATOR = '\u0001';
/** A whole element that stands for NULL. */
export const NULL_TEXT = '\u0002';
/** Text that would read as a separator or a NULL. */
const HOLDS_A_MARK = /[\u0001\u0002]/;

/** SQL turning a pgTextList parameter back into the column's `text[]`. */
export const pgTextListSql = (placeholder: string) => `string_to_array(${placeholder}, E'\\x01', E'\\x02')`;

/**
 * A text column's values as one text for `string_to_array` (pgTextListSql): the texts as
 * they are, joined by a control character. An array literal quotes and escapes every
 * element, and the spans' JSON texts are full of quotes: PostgreSQL then parses the literal
 * back character by character. Answers null when a value holds either mark (not JSON
 * text: a name, a message) or the list would be one empty text (`string_to_array` reads
 * '' as no element): the column then travels as an array literal.
 */
export function pgTextList(values: readonly unknown[]): string | null {
  const texts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      texts[i] = NULL_TEXT;
      continue;
    }
    const text = String(value);
    if (HOLDS_A_MARK.test(text)) return null;
    texts[i] = text;
  }
  const list = texts.join(TEXT_SEPARATOR);
  return list === '' ? null : list;
}
