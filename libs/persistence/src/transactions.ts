import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` in one transaction. On SQLite, TypeORM shares a single connection, so two
 * transactions started concurrently would interleave on it (the second nests as a
 * savepoint inside the first); they are queued per DataSource instead. PostgreSQL
 * gives each transaction its own pooled connection.
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'postgres') return dataSource.transaction(work);
  const previous = sqliteQueues.get(dataSource) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => dataSource.transaction(work));
  sqliteQueues.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * Runs reads that must agree with each other (a row and its children) against one snapshot.
 * PostgreSQL: a read-only REPEATABLE READ transaction on one pooled connection, opened in one
 * statement; under the default READ COMMITTED each statement sees what was committed when it
 * started, so a write committed between two reads (a trace's totals, then its spans) would
 * show half of it. SQLite: the reads run as they are; better-sqlite3 runs each statement to
 * its end on the one connection, and a transaction queued by inTransaction would make every
 * read wait behind the writes.
 */
export async function inSnapshot<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type !== 'postgres') return work(dataSource.manager);
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const result = await work(runner.manager);
      await runner.query('COMMIT');
      return result;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

/**
 * A typed INSERT of whole rows. TypeORM's deep-partial insert type cannot express JSON
 * columns typed as `Record<string, unknown>`; a whole entity row is always insertable.
 * Nothing is read back: every column is written. (For a column with a default, TypeORM
 * would re-read it, with RETURNING on PostgreSQL, merging the raw text into the row past
 * its transformer, and with a SELECT on SQLite.)
 */
export async function insertRows<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, rows: T | T[]): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(entity)
    .values(rows as QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[])
    .updateEntity(false)
    .execute();
}
