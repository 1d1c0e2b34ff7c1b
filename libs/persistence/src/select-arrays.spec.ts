import { expect } from '@jest/globals';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { QueryFailedError } from 'typeorm';
import { serviceStore, type StoreEnv } from './data-source.factory';
import { SqlBuilder } from './dialect-sql';
import { selectArrays } from './select-arrays';
import { inSnapshot } from './transactions';

describe.each(TEST_STORES)('selectArrays on %s', (kind) => {
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
    const failure = await selectArrays(store.dataSource.manager, 'SELECT nope FROM things', []).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).driverError).toBeDefined();
  });
});
