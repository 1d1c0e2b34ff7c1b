import { expect } from '@jest/globals';
import { openTestStore, type TestStore } from '@cinetrace/testing';
import { traceIngestStore } from '../trace-ingest.module';
import { selectTraceSummaries } from './trace-reads';

const PROJECT = 'proj_burst';
const TRACES = 30_000;
const PAGE = 50;

/**
 * A list page walks its index newest first and stops at the page's end even while the
 * statistics undercount the project's traces, as they do right after a burst nobody has
 * analyzed yet. Left to the statistics, PostgreSQL read every trace of the project and sorted
 * them for each page (trace-ingest's session settings rule that out; see traceIngestStore).
 */
describe('a trace list page on PostgreSQL, before the traces are analyzed', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore('postgres', traceIngestStore);
    const { dataSource } = store;
    // Nothing may analyze the burst while the test runs.
    await dataSource.query('ALTER TABLE traces SET (autovacuum_enabled = false)');
    await dataSource.query(
      `INSERT INTO traces (project_id, id, name, status, status_explicit, start_time, start_explicit, metadata, tags,
                           span_count, error_count, usage, cost_spans, created_at, updated_at)
       SELECT $1, 'trace-' || lpad(n::text, 6, '0'), 'render', 'ok', 0, 1861920000000 + n * 1000, 1, '{}', '[]', 1, 0, '{}', 0, 0, 0
       FROM generate_series(1, ${TRACES}) AS n`,
      [PROJECT],
    );
  }, 120_000);

  afterAll(async () => {
    await store?.close();
  });

  /** The plan of a page deep in the list, as selectTraceSummaries asks for it (its WHERE, ORDER BY and LIMIT, summary columns). */
  async function planOfPage(settings: string[] = []): Promise<string> {
    return store.dataSource.transaction(async (tx) => {
      for (const setting of settings) await tx.query(`SET LOCAL ${setting}`);
      const plan = await tx.query<Array<{ 'QUERY PLAN': string }>>(
        `EXPLAIN SELECT t.id, t.name, t.status, t.start_time, t.metadata, t.tags, t.usage FROM traces t WHERE t.project_id = $1 AND (t.start_time, t.id) < ($2, $3)
           ORDER BY t.start_time DESC, t.id DESC LIMIT $4`,
        [PROJECT, 1861920000000 + (TRACES / 2) * 1000, 'trace-015000', PAGE + 1],
      );
      return plan.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it('has no statistics to go by (the case the setting is for)', async () => {
    const [stats] = await store.dataSource.query<Array<{ analyzed: string }>>(`SELECT count(*) AS analyzed FROM pg_stats WHERE tablename = 'traces'`);
    expect(Number(stats.analyzed)).toBe(0);
    // With bitmap scans allowed, the planner reads the project's every trace and sorts them.
    expect(await planOfPage(['enable_bitmapscan = on'])).toMatch(/Sort/);
  });

  it('walks the index backwards to the page, with no sort', async () => {
    const plan = await planOfPage();
    expect(plan).toMatch(/Index Scan Backward using traces_project_start/);
    expect(plan).not.toMatch(/Sort|Bitmap/);
  });

  it('answers the page newest first from the key on', async () => {
    const rows = await selectTraceSummaries(store.dataSource.manager, PROJECT, {}, [1861920000000 + 15_000 * 1000, 'trace-015000'], PAGE);
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: PAGE }, (_, i) => `trace-${String(14_999 - i).padStart(6, '0')}`));
  });
});
