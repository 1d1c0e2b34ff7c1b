import {
  DomainError,
  ErrorCode,
  IngestReceiptsReply,
  Page,
  ProjectContext,
  rowsForPage,
  SpanParentsReply,
  toPage,
  TRACE_STATUSES,
  TraceAcceptedView,
  TraceGetRequest,
  TraceListFilters,
  TraceListKey,
  TraceListRequest,
  TraceSummaryView,
  TraceView,
} from '@cinetrace/contracts';
import { JsonText } from '@cinetrace/bus';
import { Dialect, SqlBuilder } from '@cinetrace/persistence';
import { toTimeline } from '@cinetrace/traces';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { spanTextFromRow, traceFromRow } from '../store/trace-rows';
import { metadataClauses } from './metadata-filter';
import { toSummaryView, traceViewJson } from './trace.views';

/** Summary columns only: a list never reads the (possibly large) input and output. */
const SUMMARY_COLUMNS =
  't.project_id, t.id, t.name, t.status, t.status_explicit, t.start_time, t.start_explicit, t.end_time, t.metadata, t.tags, ' +
  't.user_id, t.session_id, t.span_count, t.error_count, t.usage, t.cost_usd, t.cost_spans, t.created_at, t.updated_at, t.dropped';

/** Reads of traces; every query is scoped by the caller's project and binds every value. */
@Injectable()
export class TraceReadsService {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /** The trace with its spans, as TraceView's JSON text (see traceViewJson). */
  async get({ ctx, id }: TraceGetRequest): Promise<JsonText> {
    const sql = new SqlBuilder(this.dialect);
    const [row] = await this.dataSource.query<Array<Record<string, unknown> | undefined>>(
      `SELECT * FROM traces WHERE project_id = ${sql.bind(ctx.projectId)} AND id = ${sql.bind(id)}`,
      sql.params,
    );
    if (!row) throw DomainError.notFound(`No trace with id '${id}' in this project`);
    const spanSql = new SqlBuilder(this.dialect);
    const spans: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT * FROM spans WHERE project_id = ${spanSql.bind(ctx.projectId)} AND trace_id = ${spanSql.bind(id)}`,
      spanSql.params,
    );
    const payload = { input: row.input as string | null, output: row.output as string | null };
    return new JsonText(traceViewJson(traceFromRow(row, false), payload, toTimeline(spans.map(spanTextFromRow))));
  }

  async list({ ctx, filters, page }: TraceListRequest): Promise<Page<TraceSummaryView, TraceListKey>> {
    const sql = new SqlBuilder(this.dialect);
    const where = [`t.project_id = ${sql.bind(ctx.projectId)}`, ...this.filterClauses(ctx, filters, sql)];
    if (page.after) {
      const [startTime, id] = page.after;
      // A row-value comparison, so both databases seek the (…, start_time, id) index to the key
      // (spelled as `a < x OR (a = x AND b < y)`, SQLite walked every entry before it).
      where.push(`(t.start_time, t.id) < (${sql.bind(startTime)}, ${sql.bind(id)})`);
    }
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS} FROM traces t WHERE ${where.join(' AND ')}
       ORDER BY t.start_time DESC, t.id DESC LIMIT ${sql.bind(rowsForPage(page))}`,
      sql.params,
    );
    const traces = rows.map((row) => traceFromRow(row, false));
    const { items, nextKey } = toPage(traces, page.limit, (trace): TraceListKey => [trace.startTime, trace.id]);
    return { items: items.map(toSummaryView), nextKey };
  }

  /** For each named span and each of its stored ancestors: its stored parent. */
  async parentsOf(ctx: ProjectContext, traceId: string, spanIds: string[]): Promise<SpanParentsReply> {
    const sql = new SqlBuilder(this.dialect);
    const rows: { id: string; parent_id: string | null }[] = await this.dataSource.query(
      `SELECT id, parent_id FROM spans WHERE project_id = ${sql.bind(ctx.projectId)} AND trace_id = ${sql.bind(traceId)}`,
      sql.params,
    );
    const stored = new Map(rows.map((r) => [r.id, r.parent_id]));
    const reply: SpanParentsReply = {};
    for (const spanId of spanIds) {
      for (let at: string | null | undefined = spanId; at && stored.has(at) && !(at in reply); at = stored.get(at)) {
        reply[at] = stored.get(at) ?? null;
      }
    }
    return reply;
  }

  /** Which of these ingests are stored, with their traces as they now stand. */
  async receipts(ctx: ProjectContext, ingestIds: string[]): Promise<IngestReceiptsReply> {
    if (!ingestIds.length) return {};
    const sql = new SqlBuilder(this.dialect);
    const rows: { ingest_id: string; id: string; status: string; span_count: unknown; dropped: string | null }[] = await this.dataSource.query(
      `SELECT r.ingest_id, t.id, t.status, t.span_count, r.dropped FROM trace_receipts r
       JOIN traces t ON t.project_id = r.project_id AND t.id = r.trace_id
       WHERE r.project_id = ${sql.bind(ctx.projectId)} AND r.ingest_id IN (${sql.bindAll(ingestIds)})`,
      sql.params,
    );
    const reply: IngestReceiptsReply = {};
    for (const row of rows) {
      const accepted: TraceAcceptedView = { id: row.id, status: row.status as TraceView['status'], spanCount: Number(row.span_count) };
      // Only when the limits left part of this ingest out: the usual answer keeps API.md's three fields.
      if (row.dropped !== null) accepted.dropped = JSON.parse(row.dropped) as TraceAcceptedView['dropped'];
      reply[row.ingest_id] = accepted;
    }
    return reply;
  }

  private filterClauses(ctx: ProjectContext, filters: TraceListFilters, sql: SqlBuilder): string[] {
    if (filters.projectId !== undefined && filters.projectId !== ctx.projectId) {
      throw new DomainError(ErrorCode.ProjectMismatch, `projectId '${filters.projectId}' is not the project of this X-Project-Key`);
    }
    if (filters.status !== undefined && !(TRACE_STATUSES as readonly string[]).includes(filters.status)) {
      throw DomainError.validation([{ path: 'status', message: `must be one of: ${TRACE_STATUSES.join(', ')}` }]);
    }

    const clauses: string[] = [];
    const equal = { status: 't.status', name: 't.name', userId: 't.user_id', sessionId: 't.session_id' } as const;
    for (const [filter, column] of Object.entries(equal)) {
      const value = filters[filter as keyof typeof equal];
      if (value !== undefined) clauses.push(`${column} = ${sql.bind(value)}`);
    }
    if (filters.from !== undefined) clauses.push(`t.start_time >= ${sql.bind(Date.parse(filters.from))}`);
    if (filters.to !== undefined) clauses.push(`t.start_time < ${sql.bind(Date.parse(filters.to))}`);
    for (const tag of new Set(filters.tags ?? [])) {
      clauses.push(`EXISTS (SELECT 1 FROM trace_tags g WHERE g.project_id = t.project_id AND g.trace_id = t.id AND g.tag = ${sql.bind(tag)})`);
    }
    clauses.push(...metadataClauses(sql, filters.metadata ?? {}));
    return clauses;
  }
}
