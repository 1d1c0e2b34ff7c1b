import {
  DomainError,
  ErrorCode,
  IngestReceiptsReply,
  ProjectContext,
  rowsForPage,
  SpanParentsReply,
  toPage,
  TRACE_STATUSES,
  TraceAcceptedView,
  TraceGetRequest,
  TraceListKey,
  TraceListRequest,
  TextPage,
  TraceView,
} from '@cinetrace/contracts';
import { JsonText } from '@cinetrace/bus';
import { inSnapshot } from '@cinetrace/persistence';
import { toTimeline } from '@cinetrace/traces';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { selectReceipts, selectSpanParents, selectSpans, selectTrace, selectTraceSummaries } from '../store/trace-reads';
import { spanTextFromRow, traceFromRow } from '../store/trace-rows';
import { scoreView, selectLatestScores, selectScoresOfTrace } from '../scores/scores.store';
import { checkScoreFilter } from './score-filter';
import { summaryViewJson, traceViewJson } from './trace.views';

/** Reads of traces; every query is scoped by the caller's project (the statements are in store/trace-reads.ts). */
@Injectable()
export class TraceReadsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The trace with its spans, as TraceView's JSON text (see traceViewJson). */
  async get({ ctx, id }: TraceGetRequest): Promise<JsonText> {
    // One snapshot: the trace's totals are its spans' sums, so both must come from the same commit.
    const { row, spans, scores } = await inSnapshot(this.dataSource, async (manager) => {
      const trace = await selectTrace(manager, ctx.projectId, id);
      if (!trace) return { row: trace, spans: [], scores: [] };
      return { row: trace, spans: await selectSpans(manager, ctx.projectId, id), scores: await selectScoresOfTrace(manager, ctx.projectId, id) };
    });
    if (!row) throw DomainError.notFound(`No trace with id '${id}' in this project`);
    const payload = { input: row.input as string | null, output: row.output as string | null };
    return new JsonText(traceViewJson(traceFromRow(row, false), payload, toTimeline(spans.map(spanTextFromRow)), scores.map(scoreView)));
  }

  /** A page of trace summaries, written as JSON text (summaryViewJson) for the gateway to send on. */
  async list({ ctx, filters, page }: TraceListRequest): Promise<TextPage<TraceListKey>> {
    const { projectId, ...filter } = filters;
    if (projectId !== undefined && projectId !== ctx.projectId) {
      throw new DomainError(ErrorCode.ProjectMismatch, `projectId '${projectId}' is not the project of this X-Project-Key`);
    }
    if (filter.status !== undefined && !(TRACE_STATUSES as readonly string[]).includes(filter.status)) {
      throw DomainError.validation([{ path: 'status', message: `must be one of: ${TRACE_STATUSES.join(', ')}` }]);
    }
    checkScoreFilter(filter);
    const manager = this.dataSource.manager;
    const rows = await selectTraceSummaries(manager, ctx.projectId, filter, page.after || undefined, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row): TraceListKey => [Number(row.start_time), row.id as string]);
    // The page's scores in one more read: a score may come before or after its trace, so none is kept on the trace's row.
    const scores = await selectLatestScores(
      manager,
      ctx.projectId,
      items.map((row) => row.id as string),
    );
    return { itemsJson: `[${items.map((row) => summaryViewJson(row, scores.get(row.id as string))).join(',')}]`, nextKey };
  }

  /** For each named span and each of its stored ancestors: its stored parent. */
  async parentsOf(ctx: ProjectContext, traceId: string, spanIds: string[]): Promise<SpanParentsReply> {
    const rows = await selectSpanParents(this.dataSource.manager, ctx.projectId, traceId);
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
    const rows = await selectReceipts(this.dataSource.manager, ctx.projectId, ingestIds);
    const reply: IngestReceiptsReply = {};
    for (const row of rows) {
      const accepted: TraceAcceptedView = { id: row.id, status: row.status as TraceView['status'], spanCount: Number(row.span_count) };
      // Only when the limits left part of this ingest out: the usual answer keeps API.md's three fields.
      if (row.dropped !== null) accepted.dropped = JSON.parse(row.dropped) as TraceAcceptedView['dropped'];
      reply[row.ingest_id] = accepted;
    }
    return reply;
  }
}
