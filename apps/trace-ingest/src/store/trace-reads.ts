import type { TraceListFilters, TraceListKey } from '@cinetrace/contracts';
import { dialectOf, selectArrays, SqlBuilder } from '@cinetrace/persistence';
import { splitMicros, toEpochMs } from '@cinetrace/traces';
import type { EntityManager } from 'typeorm';
import { metadataClauses } from './metadata-filter';

// The reads of traces, as hand-built SQL (a hot path, as the writes are): every
// statement is scoped by the caller's project and binds every value.

/** A stored row, by column name. */
export type Row = Record<string, unknown>;

/**
 * What a list item shows (summaryViewJson), read as arrays (selectArrays) in this order: not
 * the (possibly large) input and output, nor the project (the caller's), nor the columns only
 * a merge reads: each column read costs SQLite time on every row of the page.
 */
const SUMMARY_COLUMNS =
  't.id, t.name, t.status, t.start_time, t.end_time, t.metadata, t.tags, ' +
  't.user_id, t.session_id, t.span_count, t.error_count, t.usage, t.cost_usd, t.created_at, t.updated_at, t.dropped, ' +
  't.start_time_us, t.end_time_us';

// prettier-ignore
const summaryRow = (projectId: string, c: unknown[]): Row => ({
  project_id: projectId, id: c[0], name: c[1], status: c[2], start_time: c[3], end_time: c[4], metadata: c[5], tags: c[6],
  user_id: c[7], session_id: c[8], span_count: c[9], error_count: c[10], usage: c[11], cost_usd: c[12], created_at: c[13], updated_at: c[14], dropped: c[15],
  start_time_us: c[16], end_time_us: c[17],
});

/** What a trace's GET reads of each span (spanTextFromRow), as arrays in this order. */
const SPAN_COLUMNS =
  'id, parent_id, name, kind, status, status_message, start_time, end_time, model, input, output, usage, cost_usd, attributes, events, attribute_copies, ' +
  'start_time_us, end_time_us, cost_source';

// prettier-ignore
const spanRow = (c: unknown[]): Row => ({
  id: c[0], parent_id: c[1], name: c[2], kind: c[3], status: c[4], status_message: c[5], start_time: c[6], end_time: c[7], model: c[8],
  input: c[9], output: c[10], usage: c[11], cost_usd: c[12], attributes: c[13], events: c[14], attribute_copies: c[15],
  start_time_us: c[16], end_time_us: c[17], cost_source: c[18],
});

/** The trace's row, input and output included. */
export async function selectTrace(manager: EntityManager, projectId: string, id: string): Promise<Row | undefined> {
  const sql = new SqlBuilder(dialectOf(manager));
  const [row] = await manager.query<Array<Row | undefined>>(`SELECT * FROM traces WHERE project_id = ${sql.bind(projectId)} AND id = ${sql.bind(id)}`, sql.params);
  return row;
}

export async function selectSpans(manager: EntityManager, projectId: string, traceId: string): Promise<Row[]> {
  const spanSql = new SqlBuilder(dialectOf(manager));
  const rows = await selectArrays(
    manager,
    `SELECT ${SPAN_COLUMNS} FROM spans WHERE project_id = ${spanSql.bind(projectId)} AND trace_id = ${spanSql.bind(traceId)}`,
    spanSql.params,
  );
  return rows.map(spanRow);
}

/** The filters a list applies, once checked (see TraceReadsService.list). */
export type TraceFilter = Omit<TraceListFilters, 'projectId'>;

/** The project's traces' summary rows (what summaryViewJson reads), newest first, `rows` of them from after the key `after`. */
export async function selectTraceSummaries(manager: EntityManager, projectId: string, filters: TraceFilter, after: TraceListKey | undefined, rows: number): Promise<Row[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const where = [`t.project_id = ${sql.bind(projectId)}`, ...filterClauses(filters, sql)];
  if (after) {
    const [startTime, id] = after;
    // A row-value comparison, so both databases seek the (…, start_time, id) index to the key
    // (spelled as `a < x OR (a = x AND b < y)`, SQLite walked every entry before it).
    where.push(`(t.start_time, t.id) < (${sql.bind(startTime)}, ${sql.bind(id)})`);
  }
  const found = await selectArrays(
    manager,
    `SELECT ${SUMMARY_COLUMNS} FROM traces t WHERE ${where.join(' AND ')}
       ORDER BY t.start_time DESC, t.id DESC LIMIT ${sql.bind(rows)}`,
    sql.params,
  );
  return found.map((columns) => summaryRow(projectId, columns));
}

/**
 * `start >= from` or `start < to`, to the microsecond. The bound on the millisecond column
 * comes first, alone, so both stores still range over the start-time index; the
 * microseconds only decide within the bound's own millisecond.
 */
function startClause(op: '>=' | '<', time: string, sql: SqlBuilder): string {
  // The gateway sends a checked ISO time; Date.parse only keeps a time from elsewhere readable.
  const { ms, micros } = splitMicros(toEpochMs(time) ?? Date.parse(time));
  if (micros === 0) return `t.start_time ${op} ${sql.bind(ms)}`;
  return op === '>='
    ? `t.start_time >= ${sql.bind(ms)} AND (t.start_time > ${sql.bind(ms)} OR t.start_time_us >= ${sql.bind(micros)})`
    : `t.start_time <= ${sql.bind(ms)} AND (t.start_time < ${sql.bind(ms)} OR t.start_time_us < ${sql.bind(micros)})`;
}

function filterClauses(filters: TraceFilter, sql: SqlBuilder): string[] {
  const clauses: string[] = [];
  const equal = { status: 't.status', name: 't.name', userId: 't.user_id', sessionId: 't.session_id' } as const;
  for (const [filter, column] of Object.entries(equal)) {
    const value = filters[filter as keyof typeof equal];
    if (value !== undefined) clauses.push(`${column} = ${sql.bind(value)}`);
  }
  if (filters.from !== undefined) clauses.push(startClause('>=', filters.from, sql));
  if (filters.to !== undefined) clauses.push(startClause('<', filters.to, sql));
  for (const tag of new Set(filters.tags ?? [])) {
    clauses.push(`EXISTS (SELECT 1 FROM trace_tags g WHERE g.project_id = t.project_id AND g.trace_id = t.id AND g.tag = ${sql.bind(tag)})`);
  }
  clauses.push(...metadataClauses(sql, filters.metadata ?? {}));
  if (filters.scoreName !== undefined) clauses.push(scoreClause(filters, sql));
  return clauses;
}

/**
 * The trace's latest score of `scoreName` (by createdAt, then id: the one its summary shows)
 * is within scoreMin..scoreMax, or is the category scoreValue; with neither, the trace has a
 * score of that name. A probe of `scores_by_trace` per trace the list walks.
 */
function scoreClause(filters: TraceFilter, sql: SqlBuilder): string {
  const conditions = [`s.project_id = t.project_id`, `s.trace_id = t.id`, `s.name = ${sql.bind(filters.scoreName)}`];
  if (filters.scoreMin !== undefined) conditions.push(`s.value >= ${sql.bind(filters.scoreMin)}`);
  if (filters.scoreMax !== undefined) conditions.push(`s.value <= ${sql.bind(filters.scoreMax)}`);
  if (filters.scoreValue !== undefined) conditions.push(`s.string_value = ${sql.bind(filters.scoreValue)}`);
  if (filters.scoreMin === undefined && filters.scoreMax === undefined && filters.scoreValue === undefined) {
    return `EXISTS (SELECT 1 FROM scores s WHERE ${conditions.join(' AND ')})`;
  }
  const newer = `SELECT 1 FROM scores n WHERE n.project_id = s.project_id AND n.trace_id = s.trace_id AND n.name = s.name AND (n.created_at, n.id) > (s.created_at, s.id)`;
  return `EXISTS (SELECT 1 FROM scores s WHERE ${conditions.join(' AND ')} AND NOT EXISTS (${newer}))`;
}

/** Every span of the trace with its parent. */
export function selectSpanParents(manager: EntityManager, projectId: string, traceId: string): Promise<{ id: string; parent_id: string | null }[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  return manager.query(`SELECT id, parent_id FROM spans WHERE project_id = ${sql.bind(projectId)} AND trace_id = ${sql.bind(traceId)}`, sql.params);
}

/** The receipts of these ingests that are stored, with their traces as they now stand. */
export function selectReceipts(
  manager: EntityManager,
  projectId: string,
  ingestIds: string[],
): Promise<{ ingest_id: string; id: string; status: string; span_count: unknown; dropped: string | null }[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  return manager.query(
    `SELECT r.ingest_id, t.id, t.status, t.span_count, r.dropped FROM trace_receipts r
       JOIN traces t ON t.project_id = r.project_id AND t.id = r.trace_id
       WHERE r.project_id = ${sql.bind(projectId)} AND r.ingest_id IN (${sql.bindAll(ingestIds)})`,
    sql.params,
  );
}
