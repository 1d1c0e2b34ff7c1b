import fs from 'node:fs';
import path from 'node:path';
import type { TlsOptions } from 'node:tls';
import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, DataSourceOptions, MixedList } from 'typeorm';
import { databaseTarget, type DatabaseTarget } from './database-target';
import { FALLBACK_AUTOCHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer';

export interface ServiceDataSourceSpec {
  target: DatabaseTarget;
  entities: MixedList<Function>;
  migrations: MixedList<Function>;
  /**
   * Bring the schema up to date on open (the default). When false, migrations are left to a
   * separate step (`migrate.js`, a Kubernetes Job) and opening fails while any is pending.
   */
  migrateOnOpen?: boolean;
  /** PostgreSQL settings of the service's every session (`-c name=value` at connect); SQLite has none. */
  postgresSettings?: Readonly<Record<string, string>>;
}

/** The variables every app with a database reads. */
export interface StoreEnv {
  DATABASE_URL?: string;
  DATABASE_SSL_CA_FILE?: string;
  DATA_DIR: string;
  MIGRATE_ON_START: boolean;
}

/** Where `service` keeps its data, as its module and its migration step (migrate.ts) open it. */
export function serviceStore(service: string, env: StoreEnv, schema: Pick<ServiceDataSourceSpec, 'entities' | 'migrations'>): ServiceDataSourceSpec {
  return {
    target: databaseTarget(service, { databaseUrl: env.DATABASE_URL, databaseCaFile: env.DATABASE_SSL_CA_FILE, dataDir: env.DATA_DIR }),
    ...schema,
    migrateOnOpen: env.MIGRATE_ON_START,
  };
}

export function dataSourceOptions({ target, entities, migrations, postgresSettings = {} }: ServiceDataSourceSpec): DataSourceOptions {
  const common = { entities, migrations, synchronize: false, migrationsRun: false, logging: false } as const;
  if (target.kind === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: target.url,
      // TypeORM types it as server options; node-postgres hands it to tls.connect as client options.
      ssl: target.ssl as boolean | TlsOptions,
      schema: target.schema,
      // Unqualified names in migrations and raw SQL resolve to the service's own schema.
      extra: { options: sessionOptions({ search_path: target.schema, ...postgresSettings }), max: 10, connectionTimeoutMillis: 5000 },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: target.file,
    enableWAL: true,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    },
  };
}

/** The startup `options` of a PostgreSQL session setting each of `settings`. */
function sessionOptions(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

/**
 * Opens a service's store and brings its schema up to date. On PostgreSQL the
 * migrations run under an advisory lock, so replicas starting together migrate once.
 */
export async function openServiceDataSource(spec: ServiceDataSourceSpec, attempts = 10, delayMs = 2000): Promise<DataSource> {
  const logger = new Logger('Persistence');
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOnce(spec);
    } catch (err) {
      const reason = (err as { code?: string })?.code ?? (err as Error)?.message;
      const problem = err instanceof PendingMigrations ? 'The database schema is behind' : 'The database is unreachable';
      if (attempt >= attempts) throw new Error(`${problem} (${reason})`);
      // A database that is still starting is normal in compose and Kubernetes: wait for it.
      logger.warn(`${problem} (${reason}); retrying in ${delayMs} ms (${attempt}/${attempts})`);
      await sleep(delayMs);
    }
  }
}

async function openOnce(spec: ServiceDataSourceSpec): Promise<DataSource> {
  if (spec.target.kind === 'sqlite') fs.mkdirSync(path.dirname(spec.target.file), { recursive: true });
  const dataSource = new DataSource(dataSourceOptions(spec));
  await dataSource.initialize();
  try {
    if (spec.migrateOnOpen === false) await requireCurrentSchema(dataSource);
    else await migrate(dataSource, spec.target);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  if (spec.target.kind === 'sqlite') await checkpointOffTheEventLoop(dataSource, spec.target.file);
  return dataSource;
}

/** WAL checkpoints on a thread of their own, stopped before the store closes. */
async function checkpointOffTheEventLoop(dataSource: DataSource, file: string): Promise<void> {
  await dataSource.query(`PRAGMA wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const checkpointer = new WalCheckpointer(file);
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    await checkpointer.stop();
    return destroy();
  };
}

/** Runs the service's pending migrations and closes the store: the separate migration step. */
export async function migrateServiceDatabase(spec: ServiceDataSourceSpec): Promise<void> {
  const dataSource = await openServiceDataSource({ ...spec, migrateOnOpen: true });
  await dataSource.destroy();
}

async function requireCurrentSchema(dataSource: DataSource): Promise<void> {
  // Retried by openServiceDataSource: a replica may start while the migration Job still runs.
  if (await dataSource.showMigrations()) throw new PendingMigrations();
}

class PendingMigrations extends Error {
  constructor() {
    super('migrations are pending: run the migration step, migrate.js, first');
  }
}

async function migrate(dataSource: DataSource, target: DatabaseTarget): Promise<void> {
  if (target.kind === 'sqlite') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"`);
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${target.schema}`]);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${target.schema}`]);
    }
  } finally {
    await runner.release();
  }
}
