import type { TraceIngestMessage } from '@cinetrace/contracts';
import { Dialect, inTransaction, SqlBuilder } from '@cinetrace/persistence';
import { mergeTrace, StoredSpan, TraceState } from '@cinetrace/traces';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { chunkRows, upsertStatement } from './sql-builder';
import {
  SPAN_COLUMNS, SPAN_KEY, SPAN_UPDATE, spanFromRow, spanToRow, TRACE_COLUMNS, TRACE_KEY, TRACE_UPDATE, traceFromRow, traceToRow,
} from './trace-rows';

/** `projectId/traceId`: trace ids are the client's, unique only within a project. */
const keyOf = (projectId: string, traceId: string) => `${projectId}/${traceId}`;

/**
 * Stores a batch of ingest messages in one transaction: loads what the batch touches,
 * merges every message in order in memory, then writes each changed trace and span once
 * with multi-row upserts, with a receipt per message for `Prefer: wait`.
 */
@Injectable()
export class TraceWriter {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  async store(messages: TraceIngestMessage[]): Promise<void> {
    if (!messages.length) return;
    await inTransaction(this.dataSource, async (manager) => {
      const states = await this.load(manager, messages);
      const changedSpans = new Map<string, Map<string, StoredSpan>>();
      const changedTraces = new Set<string>();
      for (const message of messages) {
        const key = keyOf(message.projectId, message.trace.id);
        const state = states.get(key);
        const merged = mergeTrace(message.projectId, state, message.trace, message.receivedAt);
        const spans = state?.spans ?? new Map<string, StoredSpan>();
        for (const span of merged.changedSpans) spans.set(span.id, span);
        states.set(key, { trace: merged.trace, spans });
        if (!merged.changed) continue;
        changedTraces.add(key);
        const spansOfTrace = changedSpans.get(key) ?? new Map<string, StoredSpan>();
        for (const span of merged.changedSpans) spansOfTrace.set(span.id, span);
        changedSpans.set(key, spansOfTrace);
      }
      await this.write(manager, messages, states, changedTraces, changedSpans);
    });
  }

  /** The stored rows of the batch's traces, and of the spans its messages name. */
  private async load(manager: EntityManager, messages: TraceIngestMessage[]): Promise<Map<string, TraceState>> {
    const dialect = this.dialect;
    const states = new Map<string, TraceState>();
    const byProject = new Map<string, Map<string, Set<string>>>();
    for (const { projectId, trace } of messages) {
      const traces = byProject.get(projectId) ?? new Map<string, Set<string>>();
      const spanIds = traces.get(trace.id) ?? new Set<string>();
      for (const span of trace.spans) spanIds.add(span.id);
      traces.set(trace.id, spanIds);
      byProject.set(projectId, traces);
    }
    for (const [projectId, traces] of byProject) {
      const sql = new SqlBuilder(dialect);
      const rows: Record<string, unknown>[] = await manager.query(
        `SELECT * FROM traces WHERE project_id = ${sql.bind(projectId)} AND id IN (${sql.bindAll([...traces.keys()])})`,
        sql.params,
      );
      const existing = rows.map((row) => traceFromRow(row));
      for (const trace of existing) states.set(keyOf(projectId, trace.id), { trace, spans: new Map() });
      const withSpans = existing.filter((t) => t.spanCount > 0 && traces.get(t.id)!.size > 0);
      if (!withSpans.length) continue;
      // Only the spans the batch names: their old values decide what changed.
      const spanSql = new SqlBuilder(dialect);
      const spanIds = new Set(withSpans.flatMap((t) => [...traces.get(t.id)!]));
      const spanRows: Record<string, unknown>[] = await manager.query(
        `SELECT * FROM spans WHERE project_id = ${spanSql.bind(projectId)}
           AND trace_id IN (${spanSql.bindAll(withSpans.map((t) => t.id))}) AND id IN (${spanSql.bindAll([...spanIds])})`,
        spanSql.params,
      );
      for (const row of spanRows) {
        const state = states.get(keyOf(projectId, row.trace_id as string));
        if (state && traces.get(state.trace.id)!.has(row.id as string)) state.spans.set(row.id as string, spanFromRow(row));
      }
    }
    return states;
  }

  private async write(
    manager: EntityManager,
    messages: TraceIngestMessage[],
    states: Map<string, TraceState>,
    changedTraces: Set<string>,
    changedSpans: Map<string, Map<string, StoredSpan>>,
  ): Promise<void> {
    const dialect = this.dialect;
    const run = async (statement: { sql: string; params: unknown[] }) => manager.query(statement.sql, statement.params);

    const traceRows = [...changedTraces].map((key) => traceToRow(states.get(key)!.trace));
    for (const rows of chunkRows(traceRows, TRACE_COLUMNS.length)) {
      await run(upsertStatement(dialect, 'traces', TRACE_COLUMNS, rows, TRACE_KEY, TRACE_UPDATE));
    }

    const tagRows = [...changedTraces].flatMap((key) => {
      const { trace } = states.get(key)!;
      return trace.tags.map((tag) => [trace.projectId, tag, trace.id]);
    });
    for (const rows of chunkRows(tagRows, 3)) {
      await run(upsertStatement(dialect, 'trace_tags', ['project_id', 'tag', 'trace_id'], rows, ['project_id', 'tag', 'trace_id'], []));
    }

    const spanRows = [...changedSpans].flatMap(([key, spans]) => {
      const { trace } = states.get(key)!;
      return [...spans.values()].map((span) => spanToRow(trace.projectId, trace.id, span));
    });
    for (const rows of chunkRows(spanRows, SPAN_COLUMNS.length)) {
      await run(upsertStatement(dialect, 'spans', SPAN_COLUMNS, rows, SPAN_KEY, SPAN_UPDATE));
    }

    const storedAt = Date.now();
    const receiptRows = messages.map((m) => [m.ingestId, m.projectId, m.trace.id, storedAt]);
    for (const rows of chunkRows(receiptRows, 4)) {
      await run(upsertStatement(dialect, 'trace_receipts', ['ingest_id', 'project_id', 'trace_id', 'stored_at'], rows, ['ingest_id'], []));
    }
  }
}
