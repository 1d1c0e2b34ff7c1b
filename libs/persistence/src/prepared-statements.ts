import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
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
 * PostgreSQL: statements kept prepared per connection (named, so the server parses and plans
 * them once), at most this many on a connection; new texts past it run unnamed.
 */
const MAX_NAMED_PER_CONNECTION = 64;
const named = new WeakMap<PoolClient, Set<string>>();
const names = new Map<string, string>();

/** How a statement is run on PostgreSQL: `kept` ones prepared once per connection (writes whose texts do not vary with the data). */
export interface StatementOptions {
  kept?: boolean;
}

/**
 * A SELECT's rows (or an INSERT's RETURNING rows) as arrays of column values, in the select
 * list's order. Both drivers build an object per row otherwise, setting each column by name
 * from native code, about twice the cost of arrays on better-sqlite3 (a literal built from an
 * array afterwards costs next to nothing).
 */
export async function selectArrays(manager: EntityManager, sql: string, params: unknown[], options: StatementOptions = {}): Promise<unknown[][]> {
  try {
    if (dialectOf(manager) === 'sqlite') return statementOf(manager, sql).all(params) as unknown[][];
    return await onConnection(manager, async (client) => {
      const name = options.kept ? nameOnConnection(client, sql) : undefined;
      return (await client.query<unknown[]>({ name, text: sql, values: params, rowMode: 'array' })).rows;
    });
  } catch (err) {
    throw queryFailed(sql, params, err);
  }
}

/**
 * Runs a statement that answers no rows (an upsert). On SQLite, not through `manager.query`,
 * which maps each parameter and spreads them as arguments: dear over a batch's thousands.
 */
export async function runStatement(manager: EntityManager, sql: string, params: unknown[], options: StatementOptions = {}): Promise<void> {
  try {
    if (dialectOf(manager) === 'sqlite') statementOf(manager, sql).run(params);
    else if (!options.kept) await manager.query(sql, params);
    else await onConnection(manager, (client) => client.query({ name: nameOnConnection(client, sql), text: sql, values: params }));
  } catch (err) {
    throw queryFailed(sql, params, err);
  }
}

/** Runs `work` on the manager's PostgreSQL connection (its transaction's, when it has one). */
async function onConnection<T>(manager: EntityManager, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner('slave');
  try {
    return await work((await runner.connect()) as PoolClient);
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}

/**
 * The name the statement is kept under on this connection (pg sends its text to parse only
 * the first time a connection runs it), or none once the connection keeps its share. The
 * name is the text's hash: pg refuses one name for two texts.
 */
function nameOnConnection(client: PoolClient, sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined) {
    name = `ct_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    if (names.size >= MAX_PREPARED) names.clear();
    names.set(sql, name);
  }
  let kept = named.get(client);
  if (!kept) named.set(client, (kept = new Set()));
  if (kept.has(name)) return name;
  if (kept.size >= MAX_NAMED_PER_CONNECTION) return undefined;
  kept.add(name);
  return name;
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
