import type { Database, Statement } from 'better-sqlite3';
import type { PoolClient } from 'pg';
import { type EntityManager, QueryFailedError } from 'typeorm';
import { dialectOf } from './dialect-sql';

// The hot paths' statements, run on the driver itself: on SQLite a statement kept prepared
// per connection and bound from the parameter array; on PostgreSQL on the manager's
// connection (its transaction when it has one). Errors are TypeORM's QueryFailedError, as
// `manager.query` throws them.

/** Statements kept prepared per SQLite connection: a list's filters and the writes' chunk sizes make a bounded number of texts; anything past this is prepared again. */
const MAX_PREPARED = 256;
const prepared = new WeakMap<Database, Map<string, Statement>>();

/**
 * A SELECT's rows (or an INSERT's RETURNING rows) as arrays of column values, in the select
 * list's order. Both drivers build an object per row otherwise, setting each column by name
 * from native code: better-sqlite3 took ~0.8 ms for the 100 span rows of one trace, against
 * ~0.4 ms as arrays (a literal built from an array afterwards costs next to nothing).
 */
export async function selectArrays(manager: EntityManager, sql: string, params: unknown[]): Promise<unknown[][]> {
  try {
    if (dialectOf(manager) === 'sqlite') return statementOf(manager, sql).all(params) as unknown[][];
    const runner = manager.queryRunner ?? manager.connection.createQueryRunner('slave');
    try {
      const client = (await runner.connect()) as PoolClient;
      return (await client.query<unknown[]>({ text: sql, values: params, rowMode: 'array' })).rows;
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  } catch (err) {
    throw queryFailed(sql, params, err);
  }
}

/**
 * Runs a statement that answers no rows (an upsert). On SQLite, `manager.query` cost a
 * 100-trace batch's writes ~0.4 ms of its own (each parameter mapped, then spread as an
 * argument: ~80 ns apiece over ~5,000), against none here.
 */
export async function runStatement(manager: EntityManager, sql: string, params: unknown[]): Promise<void> {
  try {
    if (dialectOf(manager) === 'sqlite') statementOf(manager, sql).run(params);
    else await manager.query(sql, params);
  } catch (err) {
    throw queryFailed(sql, params, err);
  }
}

/** The statement kept for this text; one that answers rows (a SELECT, a RETURNING) answers them as arrays. */
function statementOf(manager: EntityManager, sql: string): Statement {
  const db = (manager.connection.driver as unknown as { databaseConnection: Database }).databaseConnection;
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = new Map<string, Statement>()));
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= MAX_PREPARED) statements.delete(statements.keys().next().value!);
    statement = db.prepare(sql);
    if (statement.reader) statement.raw(true);
    statements.set(sql, statement);
  }
  return statement;
}

const queryFailed = (sql: string, params: unknown[], err: unknown) => (err instanceof QueryFailedError ? err : new QueryFailedError(sql, params, err as Error));
