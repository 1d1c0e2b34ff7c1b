import type { ServiceDataSourceSpec, StoreEnv } from '@cinetrace/persistence';
import type { DataSource, QueryRunner, Table } from 'typeorm';
import { createTestStoreEnv, type StoreKind } from './test-store';

/**
 * The SQL TypeORM would run to make the store match the entities, after the migrations
 * ran on it (what `migration:generate` would write): none when the entities describe the
 * schema the migrations make. Then, as SQL comments, what TypeORM does not compare about
 * an index: whether it is partial and, on SQLite (which keeps the SQL as written), the
 * order of its columns and its WHERE.
 */
export async function pendingSchemaChanges(spec: ServiceDataSourceSpec): Promise<string[]> {
  // Loaded here: the e2e harness imports this library too, and never opens a store itself.
  const { openServiceDataSource } = await import('@cinetrace/persistence');
  const dataSource = await openServiceDataSource({ ...spec, migrateOnOpen: true }, 1);
  try {
    if (spec.target.kind === 'sqlite') readSqliteAsDeclared(dataSource);
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    return [...upQueries.map((query) => query.query), ...(await indexDifferences(dataSource))];
  } finally {
    await dataSource.destroy();
  }
}

/** Indexes declared and present under the same name whose columns' order or partial condition differ. */
async function indexDifferences(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const tables = await runner.getTables(dataSource.entityMetadatas.map((entity) => entity.tablePath));
    const sqlite = dataSource.options.type !== 'postgres';
    const condition = (where: string | undefined) => (where ? where.replace(/\s+/g, ' ').trim() : undefined);
    const differences: string[] = [];
    for (const entity of dataSource.entityMetadatas) {
      const table = tables.find((candidate) => dataSource.driver.parseTableName(candidate).tableName === entity.tableName);
      for (const declared of entity.indices) {
        const present = table?.indices.find((index) => index.name === declared.name);
        if (!present) continue; // TypeORM's own SQL above creates it
        const declaredColumns = declared.columns.map((column) => column.databaseName);
        // PostgreSQL's columns come back in no set order (TypeORM compares them as a set); SQLite's in order.
        const columnsDiffer = sqlite && declaredColumns.join(', ') !== present.columnNames.join(', ');
        const whereDiffers = sqlite ? condition(declared.where) !== condition(present.where) : !declared.where !== !present.where;
        if (columnsDiffer || whereDiffers) {
          const describe = (columns: string[], where?: string) => `(${columns.join(', ')})${where ? ` WHERE ${where}` : ''}`;
          differences.push(
            `-- index ${declared.name}: the store has ${describe(present.columnNames, present.where)}, the entity declares ${describe(declaredColumns, declared.where)}`,
          );
        }
      }
    }
    return differences;
  } finally {
    await runner.release();
  }
}

/**
 * Migrates a new, empty store of `kind` (a PostgreSQL database of its own, or a SQLite file
 * in a directory of its own) and fails, listing the SQL, if TypeORM would change anything.
 */
export async function expectNoSchemaDrift<E extends StoreEnv>(store: (env: E) => ServiceDataSourceSpec, kind: StoreKind): Promise<void> {
  const fresh = await createTestStoreEnv(kind);
  try {
    const spec = store(fresh.env as E);
    const changes = await pendingSchemaChanges(spec);
    if (changes.length > 0) {
      throw new Error(
        `The entities do not describe the schema the migrations make (${kind}): TypeORM would run\n\n` +
          changes.map((sql) => (sql.startsWith('--') ? `  ${sql}` : `  ${sql};`)).join('\n') +
          '\n\nThe migrations are the schema: declare on the entities what they create (indexes by name, ' +
          'partial ones with `where`, uniques, foreign keys, defaults, types, nullability), or write the migration the change needs.',
      );
    }
  } finally {
    await fresh.remove();
  }
}

/**
 * Two things SQLite reports that no entity can declare, read as what the migration meant:
 * - a `PRIMARY KEY` column not also written `NOT NULL` reads as nullable (SQLite's
 *   historical quirk; PostgreSQL makes it NOT NULL), and TypeORM has no nullable primary column;
 * - a foreign key written inline (`REFERENCES t (id)`) has no name, and TypeORM matches
 *   foreign keys by name: it takes the name the entity declares for the same columns and table.
 * Everything else is compared as TypeORM reads it, so a missing or extra foreign key still shows.
 */
function readSqliteAsDeclared(dataSource: DataSource): void {
  const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>): QueryRunner => {
    const runner = createQueryRunner(...args);
    const getTables = runner.getTables.bind(runner);
    runner.getTables = async (names?: string[]) => (await getTables(names)).map((table) => asDeclared(dataSource, table));
    return runner;
  };
}

function asDeclared(dataSource: DataSource, table: Table): Table {
  for (const column of table.columns) if (column.isPrimary) column.isNullable = false;
  const metadata = dataSource.entityMetadatas.find((entity) => entity.tableName === table.name);
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((name, i) => name === b[i]);
  for (const foreignKey of table.foreignKeys) {
    if (foreignKey.name) continue;
    foreignKey.name = metadata?.foreignKeys.find(
      (declared) =>
        declared.referencedEntityMetadata.tableName === foreignKey.referencedTableName &&
        same(declared.columnNames, foreignKey.columnNames) &&
        same(declared.referencedColumnNames, foreignKey.referencedColumnNames),
    )?.name;
  }
  return table;
}
