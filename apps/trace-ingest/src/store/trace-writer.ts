import type { TraceIngestMessage } from '@cinetrace/contracts';
import { Dialect, inTransaction, SqlBuilder } from '@cinetrace/persistence';
import { mergeTrace, StoredSpan, TraceState } from '@cinetrace/traces';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { upsertStatements, type UpsertTable } from './sql-builder';
import { RECEIPT_TABLE, SPAN_TABLE, spanFromRow, spanToRow, TAG_TABLE, TRACE_TABLE, traceFromRow, traceToRow } from './trace-rows';

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
      const rows = await this.storedTraces(manager, projectId, [...traces.keys()]);
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

  /**
   * The stored rows of these traces of the project. PostgreSQL: one primary-key probe per
   * id, a plan that holds without statistics. On a table not yet analyzed, `id IN (…)` was
   * planned as a scan of all the project's traces through its start-time index, and the
   * batch's read grew with the table (0.1 → 12 ms over 25,000 traces); so was a plain
   * lateral join, flattened into a hash join. `OFFSET 0` keeps the subquery a probe per id.
   */
  private storedTraces(manager: EntityManager, projectId: string, ids: string[]): Promise<Record<string, unknown>[]> {
    const sql = new SqlBuilder(this.dialect);
    if (this.dialect === 'postgres') {
      return manager.query(
        `SELECT t.* FROM unnest(${sql.bind(ids)}::text[]) AS wanted(id)
           CROSS JOIN LATERAL (SELECT * FROM traces WHERE project_id = ${sql.bind(projectId)} AND id = wanted.id OFFSET 0) t`,
        sql.params,
      );
    }
    return manager.query(`SELECT * FROM traces WHERE project_id = ${sql.bind(projectId)} AND id IN (${sql.bindAll(ids)})`, sql.params);
  }

  private async write(
    manager: EntityManager,
    messages: TraceIngestMessage[],
    states: Map<string, TraceState>,
    changedTraces: Set<string>,
    changedSpans: Map<string, Map<string, StoredSpan>>,
  ): Promise<void> {
    const upsert = async (table: UpsertTable, rows: unknown[][]) => {
      for (const { sql, params } of upsertStatements(this.dialect, table, rows)) await manager.query(sql, params);
    };
    await upsert(TRACE_TABLE, [...changedTraces].map((key) => traceToRow(states.get(key)!.trace)));
    await upsert(
      TAG_TABLE,
      [...changedTraces].flatMap((key) => {
        const { trace } = states.get(key)!;
        return trace.tags.map((tag) => [trace.projectId, tag, trace.id]);
      }),
    );
    await upsert(
      SPAN_TABLE,
      [...changedSpans].flatMap(([key, spans]) => {
        const { trace } = states.get(key)!;
        return [...spans.values()].map((span) => spanToRow(trace.projectId, trace.id, span));
      }),
    );
    const storedAt = Date.now();
    await upsert(RECEIPT_TABLE, messages.map((m) => [m.ingestId, m.projectId, m.trace.id, storedAt]));
  }
}
