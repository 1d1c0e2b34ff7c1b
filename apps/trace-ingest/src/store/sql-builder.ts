import type { Dialect } from '@cinetrace/persistence';
import { pgArrayLiteral } from './pg-array-literal';
import { pgTextList, pgTextListSql } from './pg-text-list';

/** A column's PostgreSQL type, as its array parameter is cast for `unnest`. */
export type PgType = 'text' | 'int2' | 'int4' | 'int8' | 'float8';

/** A table the writer upserts: its columns in row order, its key, and what an upsert replaces (nothing: DO NOTHING). */
export interface UpsertTable {
  readonly name: string;
  readonly columns: ReadonlyArray<readonly [column: string, pgType: PgType]>;
  readonly key: readonly string[];
  readonly update: readonly string[];
}

export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * `INSERT … ON CONFLICT (key) DO UPDATE` (or DO NOTHING) statements storing `rows`, whose
 * keys must be distinct. PostgreSQL: one statement whatever the row count, each column
 * bound as one array (a text column as its texts joined: pgTextList) and spread by
 * `unnest`; a multi-row VALUES list binds a parameter per
 * cell, and a batch's 1,000 spans (17,000 parameters) spent half its time in parse and bind.
 * SQLite (in-process, no arrays): multi-row VALUES, chunked (chunkRows).
 */
export function upsertStatements(dialect: Dialect, table: UpsertTable, rows: readonly unknown[][]): Statement[] {
  return insertStatements(dialect, table, rows, onConflict(table));
}

/**
 * `INSERT … ON CONFLICT (key) DO NOTHING RETURNING key`: stores only the rows whose key is
 * not taken yet, and answers with the keys it stored (each statement's rows).
 */
export function insertAbsentStatements(dialect: Dialect, table: UpsertTable, rows: readonly unknown[][]): Statement[] {
  return insertStatements(dialect, table, rows, `ON CONFLICT (${table.key.join(', ')}) DO NOTHING RETURNING ${table.key.join(', ')}`);
}

function insertStatements(dialect: Dialect, table: UpsertTable, rows: readonly unknown[][], conflict: string): Statement[] {
  if (!rows.length) return [];
  if (dialect === 'postgres') return [unnestInsert(table, rows, conflict)];
  return chunkRows(rows, table.columns.length).map((chunk) => ({ sql: sqliteValuesSql(table, chunk.length, conflict), params: cells(chunk) }));
}

function unnestInsert(table: UpsertTable, rows: readonly unknown[][], conflict: string): Statement {
  const arrays: string[] = [];
  const params: Array<string | Buffer> = [];
  table.columns.forEach(([, type], i) => {
    const values = rows.map((row) => row[i]);
    const list = type === 'text' ? pgTextList(values) : null;
    params.push(list ?? pgArrayLiteral(values));
    arrays.push(list === null ? `$${i + 1}::${type}[]` : pgTextListSql(`$${i + 1}`));
  });
  return {
    sql: `INSERT INTO ${table.name} (${columnList(table)}) SELECT * FROM unnest(${arrays.join(', ')}) ${conflict}`,
    params,
  };
}

/** The rows' cells in one array, by a loop: `rows.flat()` is many times slower on this hot path. */
function cells(rows: readonly unknown[][]): unknown[] {
  const all: unknown[] = [];
  for (const row of rows) for (let i = 0; i < row.length; i++) all.push(row[i]);
  return all;
}

/**
 * SQLite's `INSERT … VALUES (?, …), …` for this many rows, written once per table, size and
 * conflict clause (chunkRows makes a dozen sizes): the same string each time, so the prepared
 * statement is found by a hash the string already holds, not by hashing ~30 KB of text again.
 */
const sqliteValuesTexts = new WeakMap<UpsertTable, Map<string, string>>();
function sqliteValuesSql(table: UpsertTable, rows: number, conflict: string): string {
  let texts = sqliteValuesTexts.get(table);
  if (!texts) sqliteValuesTexts.set(table, (texts = new Map<string, string>()));
  const key = `${rows} ${conflict}`;
  let sql = texts.get(key);
  if (sql === undefined) {
    const row = `(${table.columns.map(() => '?').join(', ')})`;
    sql = `INSERT INTO ${table.name} (${columnList(table)}) VALUES ${Array.from({ length: rows }, () => row).join(', ')} ${conflict}`;
    texts.set(key, sql);
  }
  return sql;
}

const columnList = (table: UpsertTable) => table.columns.map(([column]) => column).join(', ');

function onConflict(table: UpsertTable): string {
  const action = table.update.length ? `DO UPDATE SET ${table.update.map((c) => `${c} = excluded.${c}`).join(', ')}` : 'DO NOTHING';
  return `ON CONFLICT (${table.key.join(', ')}) ${action}`;
}

/**
 * Splits rows into chunks of power-of-two sizes (1000 rows: 512, 256, 128, 64, 32, 8), none
 * binding more parameters than SQLite allows: a table's statements then come in a dozen
 * texts, each kept prepared, whatever the batch sizes (runStatement, selectArrays).
 */
function chunkRows<T extends readonly unknown[]>(rows: readonly T[], columns: number, maxParams = 30_000): T[][] {
  let largest = 1;
  while (largest * 2 * columns <= maxParams) largest *= 2;
  const chunks: T[][] = [];
  for (let at = 0, size = largest; at < rows.length;) {
    while (size > rows.length - at) size /= 2;
    chunks.push(rows.slice(at, at + size));
    at += size;
  }
  return chunks;
}
