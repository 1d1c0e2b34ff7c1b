import { DomainError } from '@cinetrace/contracts';
import type { SqlBuilder } from '@cinetrace/persistence';

/** Keys become a JSON path on SQLite (`$."key"`), so quotes and backslashes are refused, at every depth. */
const METADATA_KEY = /^[^"\\]{1,256}$/;

/** Deeper filter values are refused: each level is a nested SQL expression, and SQLite allows 1000. */
export const MAX_FILTER_DEPTH = 32;

/**
 * The `metadata` list filter as SQL clauses, one per key: the trace's metadata value at
 * that key equals the filter's as JSON values, whatever the order of keys in nested
 * objects (the client's order is kept in storage; `{"a":1,"b":2}` matches `{"b":2,"a":1}`).
 * Array order counts, as in JSON. PostgreSQL: jsonb equality, which is that already.
 * SQLite, whose `json()` keeps key order: a structural comparison, value by value.
 */
export function metadataClauses(sql: SqlBuilder, metadata: Record<string, unknown>): string[] {
  checkFilterValue(metadata, 0);
  return Object.entries(metadata).map(([key, value]) =>
    sql.dialect === 'postgres' ? `(${postgresJsonb(sql)} -> ${sql.bind(key)}) = ${sql.bind(JSON.stringify(value))}::jsonb` : sqliteJsonEquals(sql, `$."${key}"`, value),
  );
}

/**
 * `t.metadata` as jsonb, whatever it holds. jsonb refuses the escapes `\u0000` and lone
 * surrogates (`\ud800`), which JSON.stringify writes and which rows stored before ingest
 * refused them may hold: one such row made every metadata filter of its project a 500.
 * They read as `\ufffd` here (an escape for an escape: the JSON stays valid), so the
 * row's other keys still match; an escaped backslash before `u0000` (the text `\\u0000`)
 * is left alone. The regex only runs on text that has a `\u` at all.
 */
const ESCAPE = String.raw`\u`;
const REFUSED_ESCAPE = String.raw`(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})`;
const REPLACEMENT = String.raw`\1\\ufffd`;

function postgresJsonb(sql: SqlBuilder): string {
  const escape = sql.bind(ESCAPE);
  const pattern = sql.bind(REFUSED_ESCAPE);
  const replacement = sql.bind(REPLACEMENT);
  return `(CASE WHEN strpos(t.metadata, ${escape}) > 0 THEN regexp_replace(t.metadata, ${pattern}, ${replacement}, 'gi') ELSE t.metadata END)::jsonb`;
}

function checkFilterValue(value: unknown, depth: number): void {
  if (depth > MAX_FILTER_DEPTH) {
    throw DomainError.validation([{ path: 'args.metadata', message: `must nest at most ${MAX_FILTER_DEPTH} levels` }]);
  }
  if (Array.isArray(value)) for (const item of value) checkFilterValue(item, depth + 1);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!METADATA_KEY.test(key)) {
        throw DomainError.validation([{ path: 'args.metadata', message: 'keys must be 1..256 characters without quotes or backslashes' }]);
      }
      checkFilterValue(item, depth + 1);
    }
  }
}

/** `t.metadata` at `path` is the JSON value `value`. Binds in the order the text reads (SQLite's `?` are positional). */
function sqliteJsonEquals(sql: SqlBuilder, path: string, value: unknown): string {
  const typeIs = (types: string) => `json_type(t.metadata, ${sql.bind(path)}) IN (${types})`;
  if (value === null) return typeIs(`'null'`);
  if (typeof value === 'boolean') return typeIs(value ? `'true'` : `'false'`);
  if (typeof value === 'number') return `(${typeIs(`'integer', 'real'`)} AND json_extract(t.metadata, ${sql.bind(path)}) = ${sql.bind(value)})`;
  if (typeof value === 'string') return `(${typeIs(`'text'`)} AND json_extract(t.metadata, ${sql.bind(path)}) = ${sql.bind(value)})`;
  if (Array.isArray(value)) {
    const head = `${typeIs(`'array'`)} AND json_array_length(t.metadata, ${sql.bind(path)}) = ${sql.bind(value.length)}`;
    return `(${[head, ...value.map((item, i) => sqliteJsonEquals(sql, `${path}[${i}]`, item))].join(' AND ')})`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const head = `${typeIs(`'object'`)} AND (SELECT count(*) FROM json_each(t.metadata, ${sql.bind(path)})) = ${sql.bind(entries.length)}`;
  return `(${[head, ...entries.map(([key, item]) => sqliteJsonEquals(sql, `${path}."${key}"`, item))].join(' AND ')})`;
}
