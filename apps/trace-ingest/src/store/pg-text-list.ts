/** Between two texts of a list. JSON.stringify escapes every control character, so no JSON text holds one. */
export const TEXT_SEPARATOR = '\u0001';
/** A whole element that stands for NULL. */
export const NULL_TEXT = '\u0002';
/** Text that would read as a separator or a NULL. */
const HOLDS_A_MARK = /[\u0001\u0002]/;
/** From this many characters a text on average, the list is written as bytes (textListBytes). */
const BYTES_FROM_AVERAGE_CHARS = 64;

/** SQL turning a pgTextList parameter back into the column's `text[]`. */
export const pgTextListSql = (placeholder: string) => `string_to_array(${placeholder}, E'\\x01', E'\\x02')`;

/**
 * A text column's values as one text for `string_to_array` (pgTextListSql): the texts as
 * they are, joined by a control character. An array literal quotes and escapes every
 * element, and the spans' JSON texts are full of quotes: PostgreSQL then parses the literal
 * back character by character. Answers null when a value holds either mark (not JSON
 * text: a name, a message) or the list would be one empty text (`string_to_array` reads
 * '' as no element): the column then travels as an array literal.
 *
 * Long texts (the spans' JSON) come as UTF-8 bytes, which pg binds as they are (a text
 * parameter's binary form is its bytes): joining them into one string would copy every
 * character (V8 copies char by char), and pg would then encode that string again.
 */
export function pgTextList(values: readonly unknown[]): string | Buffer | null {
  const texts = new Array<string>(values.length);
  let chars = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      texts[i] = NULL_TEXT;
      continue;
    }
    const text = String(value);
    if (HOLDS_A_MARK.test(text)) return null;
    texts[i] = text;
    chars += text.length;
  }
  if (texts.length === 1 && texts[0] === '') return null;
  return chars >= BYTES_FROM_AVERAGE_CHARS * texts.length ? textListBytes(texts, chars) : texts.join(TEXT_SEPARATOR);
}

const SEPARATOR_BYTE = TEXT_SEPARATOR.charCodeAt(0);

/** The texts in UTF-8, separated by SEPARATOR_BYTE; sized for ASCII with room to spare, grown when a text may not fit. */
function textListBytes(texts: readonly string[], chars: number): Buffer {
  let bytes = Buffer.allocUnsafe(chars + (chars >> 2) + texts.length);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    // A UTF-16 unit takes at most 3 bytes: only a text that might not fit is measured.
    if (bytes.length - at < text.length * 3 + 1) {
      const needed = Buffer.byteLength(text) + 1;
      if (bytes.length - at < needed) {
        const larger = Buffer.allocUnsafe(Math.max(bytes.length * 2, at + needed));
        bytes.copy(larger, 0, 0, at);
        bytes = larger;
      }
    }
    if (i > 0) bytes[at++] = SEPARATOR_BYTE;
    at += bytes.write(text, at);
  }
  return bytes.subarray(0, at);
}
