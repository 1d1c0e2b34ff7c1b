import { openServiceDataSource } from '@cinetrace/persistence';
import { createDatabase, type TestDatabase } from '@cinetrace/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { BenchmarkServiceEnv } from '../benchmark-service.env';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { benchmarkServiceMigrations } from './index';

/**
 * For a migration's spec: an empty store of the kind (a database of its own, or a SQLite file
 * in a temp dir) for the describe block, dropped after it. Answers the env that opens it.
 */
export function useMigrationStore(kind: 'postgres' | 'sqlite', name: string): () => BenchmarkServiceEnv {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let env: BenchmarkServiceEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
    if (kind === 'postgres') database = await createDatabase();
    env = { DATABASE_URL: database?.url, DATA_DIR: dataDir, MIGRATE_ON_START: true } as BenchmarkServiceEnv;
  }, 60_000);

  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return () => env;
}

/** The store with the migrations before `migration` run: the schema its rows are written to before it (later ones may need it). */
export const openWithout = (env: BenchmarkServiceEnv, migration: string): Promise<DataSource> =>
  openServiceDataSource(
    {
      ...benchmarkServiceStore(env),
      entities: [],
      migrations: benchmarkServiceMigrations.slice(
        0,
        benchmarkServiceMigrations.findIndex((m) => m.name === migration),
      ),
    },
    1,
  );
