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
