import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import { countWholeTrace, type StoredSpan } from '@cinetrace/traces';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Traces counted again per statement round: few enough that a page of keys stays small. */
const TRACES_PER_PAGE = 200;

/**
 * A trace's `usage` and `costUsd` count a figure once (docs/decisions, "Usage counted once";
 * libs/traces, usage-tree.ts): how many of each span's children's subtrees carry each usage
 * key and a cost (`spans.usage_below`, `spans.cost_below`), and the same for a parent not
 * stored yet (`span_usage_awaiting`). The SQL is the same on PostgreSQL and SQLite.
 *
 * Traces stored before are counted again here, from their spans, so an agent stored
 * yesterday reads as one stored today. Only traces where a span carrying usage or a cost
 * has a parent can change; each is read once (its spans' ids, parents, usage and cost).
 */
export class CountUsageOnce1765200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE spans ADD COLUMN usage_below text NULL');
    await runner.query('ALTER TABLE spans ADD COLUMN cost_below integer NOT NULL DEFAULT 0');
    await runner.query(`CREATE TABLE span_usage_awaiting (
      project_id varchar(40) NOT NULL,
      trace_id varchar(128) NOT NULL,
      parent_id varchar(128) NOT NULL,
      usage text NOT NULL,
      cost integer NOT NULL,
      PRIMARY KEY (project_id, trace_id, parent_id))`);
    await countStoredTracesAgain(runner);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE span_usage_awaiting');
    await runner.query('ALTER TABLE spans DROP COLUMN cost_below');
    await runner.query('ALTER TABLE spans DROP COLUMN usage_below');
  }
}

/** Counts every stored trace the rule can change again from its spans: its sums, its spans' counts, what awaits a parent. */
export async function countStoredTracesAgain(runner: QueryRunner): Promise<void> {
  for (let after: [string, string] | undefined; ;) {
    const page = await tracesToCount(runner, after);
    for (const [projectId, traceId] of page) await countAgain(runner, projectId, traceId);
    if (page.length < TRACES_PER_PAGE) break;
    after = page[page.length - 1];
  }
}

/** The next page of (project, trace) keys, in key order, of traces whose sums the rule can change. */
async function tracesToCount(runner: QueryRunner, after: [string, string] | undefined): Promise<Array<[string, string]>> {
  const sql = new SqlBuilder(dialectOf(runner));
  const from = after ? `AND (project_id, trace_id) > (${sql.bind(after[0])}, ${sql.bind(after[1])})` : '';
  const rows = (await runner.query(
    `SELECT DISTINCT project_id, trace_id FROM spans
       WHERE parent_id IS NOT NULL AND (usage IS NOT NULL OR cost_usd IS NOT NULL) ${from}
       ORDER BY project_id, trace_id LIMIT ${sql.bind(TRACES_PER_PAGE)}`,
    sql.params,
  )) as Array<{ project_id: string; trace_id: string }>;
  return rows.map((row) => [row.project_id, row.trace_id]);
}

async function countAgain(runner: QueryRunner, projectId: string, traceId: string): Promise<void> {
  const dialect = dialectOf(runner);
  const read = new SqlBuilder(dialect);
  const rows = (await runner.query(
    `SELECT id, parent_id, usage, cost_usd FROM spans WHERE project_id = ${read.bind(projectId)} AND trace_id = ${read.bind(traceId)}`,
    read.params,
  )) as Array<{ id: string; parent_id: string | null; usage: string | null; cost_usd: unknown }>;
  const spans = rows.map(
    (row) =>
      ({
        id: row.id,
        parentId: row.parent_id,
        status: 'unset',
        usage: row.usage === null ? null : (JSON.parse(row.usage) as Record<string, number>),
        costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
      }) as StoredSpan,
  );
  const { tree, usage, costUsd } = countWholeTrace(spans);
  const trace = new SqlBuilder(dialect);
  await runner.query(
    `UPDATE traces SET usage = ${trace.bind(JSON.stringify(usage))}, cost_usd = ${trace.bind(costUsd)}
       WHERE project_id = ${trace.bind(projectId)} AND id = ${trace.bind(traceId)}`,
    trace.params,
  );
  // From nothing, so that counting a trace twice gives the same rows.
  for (const statement of [
    'UPDATE spans SET usage_below = NULL, cost_below = 0 WHERE project_id = $P AND trace_id = $T AND (usage_below IS NOT NULL OR cost_below <> 0)',
    'DELETE FROM span_usage_awaiting WHERE project_id = $P AND trace_id = $T',
  ]) {
    const sql = new SqlBuilder(dialect);
    await runner.query(statement.replace('$P', sql.bind(projectId)).replace('$T', sql.bind(traceId)), sql.params);
  }
  for (const [spanId, below] of tree.below) {
    const sql = new SqlBuilder(dialect);
    const usageBelow = Object.keys(below.usage).length ? JSON.stringify(below.usage) : null;
    await runner.query(
      `UPDATE spans SET usage_below = ${sql.bind(usageBelow)}, cost_below = ${sql.bind(below.cost)}
         WHERE project_id = ${sql.bind(projectId)} AND trace_id = ${sql.bind(traceId)} AND id = ${sql.bind(spanId)}`,
      sql.params,
    );
  }
  for (const [parentId, waiting] of tree.awaiting) {
    const sql = new SqlBuilder(dialect);
    await runner.query(
      `INSERT INTO span_usage_awaiting (project_id, trace_id, parent_id, usage, cost)
         VALUES (${sql.bind(projectId)}, ${sql.bind(traceId)}, ${sql.bind(parentId)}, ${sql.bind(JSON.stringify(waiting.usage))}, ${sql.bind(waiting.cost)})`,
      sql.params,
    );
  }
}
