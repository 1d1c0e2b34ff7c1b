/** Text that JSON.stringify would escape other than `"` and `\`: control characters and (to stay simple) any surrogate. */
const NOT_JSON_SAFE = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * A PostgreSQL array literal (`{…}`) of these values, for a parameter cast to an array
 * type (`$1::text[]`): null is NULL, numbers as written, anything else a quoted element.
 * pg writes the same literal from a JS array, but quotes each element with two regex
 * replaces; the spans' JSON columns are most of a write's bytes and full of quotes, and
 * that escaping was the largest single cost of a write in trace-ingest's profile. Inside
 * a quoted element only `"` and `\` need a backslash, which is what JSON.stringify writes
 * for text without control characters or surrogates; other text takes the replace.
 */
export function pgArrayLiteral(values: readonly unknown[]): string {
  const elements = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) elements[i] = element(values[i]);
  return `{${elements.join(',')}}`;
}

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return quoted(String(value));
}

function quoted(text: string): string {
  return NOT_JSON_SAFE.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : JSON.stringify(text);
}
