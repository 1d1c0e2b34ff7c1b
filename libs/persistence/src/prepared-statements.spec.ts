import { expect } from '@jest/globals';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { type EntityManager, QueryFailedError } from 'typeorm';
import { serviceStore, type StoreEnv } from './data-source.factory';
import { SqlBuilder } from './dialect-sql';
import { runStatement, selectArrays } from './prepared-statements';
import { inSnapshot } from './transactions';

describe.each(TEST_STORES)('selectArrays and runStatement on %s', (kind) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(kind, (env: StoreEnv) => serviceStore('select-arrays-spec', env, { entities: [], migrations: [] }));
    await store.dataSource.query('CREATE TABLE things (id varchar(10) PRIMARY KEY, n bigint NOT NULL, note text NULL)');
    await store.dataSource.query(`INSERT INTO things VALUES ('a', 1, 'first'), ('b', 2, NULL), ('c', 3, 'say "hi", ✓')`);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it('answers each row as its column values in the select list’s order, parameters bound', async () => {
    const sql = new SqlBuilder(kind);
    const rows = await selectArrays(store.dataSource.manager, `SELECT note, id, n FROM things WHERE n >= ${sql.bind(2)} ORDER BY id`, sql.params);
    // PostgreSQL hands bigint back as text, as manager.query does.
    expect(rows.map(([note, id, n]) => [note, id, Number(n)])).toEqual([
      [null, 'b', 2],
      ['say "hi", ✓', 'c', 3],
    ]);
    // The same statement again (SQLite keeps it prepared) with other values.
    const again = new SqlBuilder(kind);
    expect(await selectArrays(store.dataSource.manager, `SELECT note, id, n FROM things WHERE n >= ${again.bind(3)} ORDER BY id`, again.params)).toHaveLength(1);
  });

  it('reads within the snapshot it is given', async () => {
    const seen = await inSnapshot(store.dataSource, async (manager) => {
      const before = await selectArrays(manager, 'SELECT COUNT(*) FROM things', []);
      await store.dataSource.query(`INSERT INTO things VALUES ('d', 4, NULL)`);
      const after = await selectArrays(manager, 'SELECT COUNT(*) FROM things', []);
      return [Number(before[0][0]), Number(after[0][0])];
    });
    // PostgreSQL's snapshot does not see the row committed meanwhile; SQLite's reads run as they are (inSnapshot).
    expect(seen).toEqual(kind === 'postgres' ? [3, 3] : [3, 4]);
    await store.dataSource.query(`DELETE FROM things WHERE id = 'd'`);
  });

  it('fails as manager.query does, with the driver’s error inside', async () => {
    for (const attempt of [
      () => selectArrays(store.dataSource.manager, 'SELECT nope FROM things', []),
      () => runStatement(store.dataSource.manager, `INSERT INTO things VALUES ('a', 1, NULL)`, []), // 'a' is taken
    ]) {
      const failure = await attempt().catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(QueryFailedError);
      expect((failure as QueryFailedError).driverError).toBeDefined();
    }
  });

  it('runs a write with its parameters bound, within the transaction it is given', async () => {
    const note = `it's "quoted", ✓`;
    const insert = (manager: EntityManager, id: string, n: number) => {
      const sql = new SqlBuilder(kind);
      return runStatement(manager, `INSERT INTO things VALUES (${sql.bind(id)}, ${sql.bind(n)}, ${sql.bind(note)})`, sql.params);
    };
    await insert(store.dataSource.manager, 'w1', 10);
    // A write in a transaction that then fails is gone with it.
    await expect(
      store.dataSource.transaction(async (manager) => {
        await insert(manager, 'w2', 11);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const rows = await selectArrays(store.dataSource.manager, `SELECT id, n, note FROM things WHERE id LIKE 'w%' ORDER BY id`, []);
    expect(rows.map(([id, n, text]) => [id, Number(n), text])).toEqual([['w1', 10, note]]);
    await store.dataSource.query(`DELETE FROM things WHERE id LIKE 'w%'`);
  });

  it('keeps a kept statement prepared on its connection, bounded, answering as an unnamed one does', async () => {
    const kept = { kept: true };
    const prepared = await store.dataSource.transaction(async (manager) => {
      for (const [id, n] of [
        ['k1', 21],
        ['k2', 22],
      ] as const) {
        const sql = new SqlBuilder(kind);
        await runStatement(manager, `INSERT INTO things VALUES (${sql.bind(id)}, ${sql.bind(n)}, NULL)`, sql.params, kept);
      }
      // More texts than a connection keeps: the ones past its share still run.
      for (let i = 0; i < 70; i++) {
        const sql = new SqlBuilder(kind);
        const rows = await selectArrays(manager, `SELECT ${i} + n FROM things WHERE id = ${sql.bind('k1')}`, sql.params, kept);
        expect(Number(rows[0][0])).toBe(21 + i);
      }
      if (kind !== 'postgres') return null;
      const statements: Array<{ name: string; statement: string }> = await manager.query(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'ct\\_%'`);
      return statements;
    });
    const rows = await selectArrays(store.dataSource.manager, `SELECT id, n FROM things WHERE id LIKE 'k%' ORDER BY id`, []);
    expect(rows.map(([id, n]) => [id, Number(n)])).toEqual([
      ['k1', 21],
      ['k2', 22],
    ]);
    if (prepared) {
      // One name for the insert (its two runs share it), and the connection's share in all.
      expect(prepared.filter((s) => s.statement.startsWith('INSERT INTO things'))).toHaveLength(1);
      expect(prepared).toHaveLength(64);
    }
    await store.dataSource.query(`DELETE FROM things WHERE id LIKE 'k%'`);
  });
});
