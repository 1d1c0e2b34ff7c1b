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
