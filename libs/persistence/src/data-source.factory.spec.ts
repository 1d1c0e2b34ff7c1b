import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
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

  describe('SQLite checkpoints', () => {
    const fileSize = () => fs.statSync(path.join(dir, 'svc.sqlite')).size;

    /** About 4 MB in the log: 1,000 pages, a tenth of what the store's own connection waits for. */
    const write4MB = async (store: DataSource) => {
      const note = 'n'.repeat(4000);
      for (let batch = 0; batch < 10; batch++) {
        const ids = Array.from({ length: 100 }, (_, i) => `${batch}-${i}-${note}`);
        await store.transaction((tx) => tx.query(`INSERT INTO notes (id) VALUES ${ids.map(() => '(?)').join(', ')}`, ids));
      }
    };
    const grownBy = async (file: string, before: number, bytes: number) => {
      const deadline = Date.now() + 5000;
      while (fs.statSync(file).size < before + bytes && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return fs.statSync(file).size - before;
    };

    it('copies the write-ahead log into the database file from another thread, well before SQLite would itself', async () => {
      const store = await openServiceDataSource(spec, 1);
      await expect(store.query('PRAGMA wal_autocheckpoint')).resolves.toEqual([{ wal_autocheckpoint: 10_000 }]);
      const before = fileSize();
      await write4MB(store);
      expect(await grownBy(path.join(dir, 'svc.sqlite'), before, 3_000_000)).toBeGreaterThan(3_000_000);
      await store.destroy();
    });

    it('checkpoints every open store, and keeps on with the others when one closes', async () => {
      const first = await openServiceDataSource(spec, 1);
      const otherFile = path.join(dir, 'other.sqlite');
      const other = await openServiceDataSource({ ...spec, target: { kind: 'sqlite', file: otherFile } }, 1);
      await first.destroy();
      const before = fs.statSync(otherFile).size;
      await write4MB(other);
      expect(await grownBy(otherFile, before, 3_000_000)).toBeGreaterThan(3_000_000);
      await other.destroy();
    });

    it('closes with a last checkpoint, and the store opens again with every row', async () => {
      const store = await openServiceDataSource(spec, 1);
      await store.query(`INSERT INTO notes (id) VALUES ('kept')`);
      await store.destroy();
      const again = await openServiceDataSource(spec, 1);
      await expect(again.query('SELECT id FROM notes')).resolves.toEqual([{ id: 'kept' }]);
      await again.destroy();
    });
  });
});
