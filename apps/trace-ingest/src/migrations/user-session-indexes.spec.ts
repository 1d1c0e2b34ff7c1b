import { expect } from '@jest/globals';
import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { traceIngestStore } from '../trace-ingest.module';

/**
 * The user and session indexes are partial (WHERE … IS NOT NULL): a trace without a user or a
 * session writes no entry in them, and the list's equality filter must still be able to use
 * them in both stores (the planner has to see that `user_id = $n` rules NULL out).
 */
describe.each(TEST_STORES)('traces user and session indexes on %s', (kind) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  /** The plan of a trace list filtered on `column`, as trace-reads writes it, with a sequential scan ruled out where the store allows it. */
  async function planOf(column: 'user_id' | 'session_id'): Promise<string> {
    const sql = new SqlBuilder(dialectOf(store.dataSource.manager));
    const query = `SELECT t.id FROM traces t WHERE t.project_id = ${sql.bind('proj_1')} AND t.${column} = ${sql.bind('someone')} ORDER BY t.start_time DESC, t.id DESC LIMIT ${sql.bind(50)}`;
    if (kind === 'sqlite') return JSON.stringify(await store.dataSource.query(`EXPLAIN QUERY PLAN ${query}`, sql.params));
    return store.dataSource.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return JSON.stringify(await tx.query(`EXPLAIN ${query}`, sql.params));
    });
  }

  it('lists by user and by session through their own index', async () => {
    expect(await planOf('user_id')).toContain('traces_project_user_start');
    expect(await planOf('session_id')).toContain('traces_project_session_start');
  });

  it('holds only the traces that have a user or a session', async () => {
    type IndexRow = { name: string; sql: string };
    const partial: IndexRow[] =
      kind === 'sqlite'
        ? await store.dataSource.query<IndexRow[]>(
            `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN ('traces_project_user_start', 'traces_project_session_start')`,
          )
        : await store.dataSource.query<IndexRow[]>(
            `SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE indexname IN ('traces_project_user_start', 'traces_project_session_start')`,
          );
    const byName = Object.fromEntries(partial.map((row) => [row.name, row.sql]));
    expect(byName.traces_project_user_start).toMatch(/WHERE \(?user_id IS NOT NULL\)?/);
    expect(byName.traces_project_session_start).toMatch(/WHERE \(?session_id IS NOT NULL\)?/);
  });
});
