import type { ServiceDataSourceSpec, StoreEnv } from '@cinetrace/persistence';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDatabase } from './database';

/** The stores every service runs on: a SQLite file (all-in-one) and PostgreSQL (distributed). */
export type StoreKind = 'sqlite' | 'postgres';

/** Both stores, for `describe.each(TEST_STORES)`: a service's rules must hold on each. */
export const TEST_STORES: readonly StoreKind[] = ['sqlite', 'postgres'];

/** An empty place for a service's data and the store variables that point at it. */
export interface TestStoreEnv {
  readonly kind: StoreKind;
  readonly env: StoreEnv;
  /** Drops the database, or removes the SQLite directory. */
  remove(): Promise<void>;
}

/** A service's store, opened and migrated as the service opens it. */
export interface TestStore {
  readonly kind: StoreKind;
  readonly dataSource: DataSource;
  /** Closes the store, then drops what it held. */
  close(): Promise<void>;
}

/**
 * A throwaway PostgreSQL database (created on the harness's server, see createDatabase)
 * or a fresh temporary directory for SQLite files: what a spec needs to open a service's
 * store more than once, or with its own schema (a migration test).
 */
export async function createTestStoreEnv(kind: StoreKind): Promise<TestStoreEnv> {
  if (kind === 'postgres') {
    const database = await createDatabase();
    // DATA_DIR is not read when DATABASE_URL is set: a path that does not exist says so.
    return { kind, env: { DATABASE_URL: database.url, DATA_DIR: '/nonexistent', MIGRATE_ON_START: true }, remove: () => database.drop() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'cinetrace-store-'));
  return { kind, env: { DATA_DIR: dataDir, MIGRATE_ON_START: true }, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * Opens a service's real store on `kind`, empty and migrated: `storeOf` is the service's
 * own store function (`promptServiceStore`, …), so the spec runs on the entities and
 * migrations the service runs on. Close it in afterAll.
 */
export async function openTestStore<E extends StoreEnv>(kind: StoreKind, storeOf: (env: E) => ServiceDataSourceSpec): Promise<TestStore> {
  const place = await createTestStoreEnv(kind);
  try {
    // Loaded here: the e2e harness imports this library too, and never opens a store itself.
    const { openServiceDataSource } = await import('@cinetrace/persistence');
    // The store functions take the app's whole environment but read only its store variables.
    const dataSource = await openServiceDataSource(storeOf(place.env as E), 1);
    return {
      kind,
      dataSource,
      close: async () => {
        await dataSource.destroy();
        await place.remove();
      },
    };
  } catch (err) {
    await place.remove();
    throw err;
  }
}
