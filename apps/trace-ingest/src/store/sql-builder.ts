import { SqlBuilder, type Dialect } from '@cinetrace/persistence';

/**
 * One multi-row `INSERT … ON CONFLICT (key) DO UPDATE` (or DO NOTHING when `update` is
 * empty): the same statement on PostgreSQL and SQLite. Rows must have distinct keys.
 */
export function upsertStatement(
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  key: readonly string[],
  update: readonly string[],
): { sql: string; params: unknown[] } {
  const sql = new SqlBuilder(dialect);
  const values = rows.map((row) => `(${sql.bindAll(row)})`).join(', ');
  const onConflict = update.length
    ? `DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}`
    : 'DO NOTHING';
  return {
    sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values} ON CONFLICT (${key.join(', ')}) ${onConflict}`,
    params: sql.params,
  };
}

/** Splits rows so that no statement binds more parameters than SQLite and PostgreSQL allow. */
export function chunkRows<T extends unknown[]>(rows: T[], columns: number, maxParams = 30_000): T[][] {
  const size = Math.max(1, Math.floor(maxParams / columns));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
