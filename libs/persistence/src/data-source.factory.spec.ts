import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { migrateServiceDatabase, openServiceDataSource, type ServiceDataSourceSpec } from './data-source.factory';

class CreateNotes1700000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE notes (id TEXT PRIMARY KEY)');
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE notes');
  }
}

describe('service stores and their migrations', () => {
  let dir: string;
  let spec: ServiceDataSourceSpec;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cinetrace-store-'));
    spec = { target: { kind: 'sqlite', file: path.join(dir, 'svc.sqlite') }, entities: [], migrations: [CreateNotes1700000000000] };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('migrates on open by default', async () => {
    const store = await openServiceDataSource(spec, 1);
    await expect(store.query('SELECT count(*) AS n FROM notes')).resolves.toEqual([{ n: 0 }]);
    await store.destroy();
  });

  it('refuses to open a store whose migrations are pending when migrating on open is off', async () => {
    await expect(openServiceDataSource({ ...spec, migrateOnOpen: false }, 1)).rejects.toThrow(
      'The database schema is behind (migrations are pending: run the migration step, migrate.js, first)',
    );
  });

  it('opens without migrating once the separate migration step ran', async () => {
    await migrateServiceDatabase(spec);
    const store = await openServiceDataSource({ ...spec, migrateOnOpen: false }, 1);
    await expect(store.query('SELECT count(*) AS n FROM notes')).resolves.toEqual([{ n: 0 }]);
    await store.destroy();
  });
});

describe('SQLite checkpoints', () => {
  let dir: string;
  let spec: ServiceDataSourceSpec;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cinetrace-wal-'));
    spec = { target: { kind: 'sqlite', file: path.join(dir, 'svc.sqlite') }, entities: [], migrations: [CreateNotes1700000000000] };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const fileSize = () => fs.statSync(path.join(dir, 'svc.sqlite')).size;

  it('copies the write-ahead log into the database file from another thread, well before SQLite would itself', async () => {
    const store = await openServiceDataSource(spec, 1);
    await expect(store.query('PRAGMA wal_autocheckpoint')).resolves.toEqual([{ wal_autocheckpoint: 10_000 }]);
    const before = fileSize();
    // About 4 MB in the log: 1,000 pages, a tenth of what the store's own connection waits for.
    const note = 'n'.repeat(4000);
    for (let batch = 0; batch < 10; batch++) {
      await store.transaction((tx) =>
        tx.query(`INSERT INTO notes (id) VALUES ${Array.from({ length: 100 }, () => '(?)').join(', ')}`,
          Array.from({ length: 100 }, (_, i) => `${batch}-${i}-${note}`)),
      );
    }
    const deadline = Date.now() + 5000;
    while (fileSize() < before + 3_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fileSize()).toBeGreaterThan(before + 3_000_000);
    await store.destroy();
  });

  it('stops its thread when the store closes, and the store opens again with every row', async () => {
    const store = await openServiceDataSource(spec, 1);
    await store.query(`INSERT INTO notes (id) VALUES ('kept')`);
    await store.destroy();
    const again = await openServiceDataSource(spec, 1);
    await expect(again.query('SELECT id FROM notes')).resolves.toEqual([{ id: 'kept' }]);
    await again.destroy();
  });
});
