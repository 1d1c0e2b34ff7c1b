import type { TraceIngestMessage } from '@cinetrace/contracts';
import { Dialect, inTransaction, runStatement, selectArrays, SqlBuilder } from '@cinetrace/persistence';
import { DroppedParts, emptyUsageTree, mediaAttachmentInput, mergeTrace, StoredSpan, StoredTrace, TraceLimits, TraceState, uncopiedMediaIn, UsageTree } from '@cinetrace/traces';
import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertAbsentStatements, upsertStatements, type UpsertTable } from './sql-builder';
import { ModelPriceTables } from '../prices/model-price-tables';
import { insertScores, type StoredScore } from '../scores/scores.store';
import { priceTrace } from '../prices/price-spans';
import type { PriceTable } from '../prices/price-table';
import { TraceIngestEnv } from '../trace-ingest.env';
import { traceLimits } from './trace-limits';
import { queueMediaReferences, type QueuedMedia } from './trace-media-outbox';
import { RECEIPT_TABLE, SPAN_TABLE, spanToRow, TAG_TABLE, TRACE_TABLE, toJson, traceFromRow, traceToRow } from './trace-rows';
import { keepStoredSpan, loadUsageTrees } from './usage-tree-loads';
import { AWAITING_TABLE, awaitingRow } from './usage-tree-rows';

/** Scores per statement: 14 parameters each, well below PostgreSQL's 65,535. */
const SCORES_PER_STATEMENT = 1000;

/**
 * The scores the messages carry (a benchmark task's scorer results), in the batch's
 * transaction: a trace and the scores sent with it are stored together. Written over when
 * their id is held already (a task's later attempt scores anew); the last of an id wins.
 */
async function storeStreamScores(manager: EntityManager, messages: readonly TraceIngestMessage[]): Promise<void> {
  const scores = new Map<string, StoredScore>();
  for (const { projectId, trace, scores: sent } of messages) {
    for (const score of sent ?? []) {
      scores.set(keyOf(projectId, score.id), { ...score, projectId, traceId: trace.id, configId: null, author: null });
    }
  }
  const all = [...scores.values()];
  for (let at = 0; at < all.length; at += SCORES_PER_STATEMENT) await insertScores(manager, all.slice(at, at + SCORES_PER_STATEMENT), { replace: true });
}

/** `projectId/traceId`: trace ids are the client's, unique only within a project. */
const keyOf = (projectId: string, traceId: string) => `${projectId}/${traceId}`;
/** The writes' statements come in a few texts whatever the data (unnest of arrays): PostgreSQL parses and plans each once per connection. */
const KEPT = { kept: true } as const;

/** What merging messages into the traces as they were gave: each trace's state, and what changed. */
interface BatchMerge {
  states: Map<string, TraceState>;
  changedTraces: Set<string>;
  changedSpans: Map<string, Map<string, StoredSpan>>;
  /** Per trace: the missing parents whose awaiting entries changed (usage-tree.ts). */
  changedAwaiting: Map<string, Set<string>>;
  /** Per ingest id: what of its trace the limits left out. */
  dropped: Map<string, DroppedParts>;
}

/**
 * Merges every message in order into `states` (the stored traces it touches; absent ones are
 * new), each span's cost said first by its project's price table (priceTrace).
 */
function mergeBatch(messages: readonly TraceIngestMessage[], states: Map<string, TraceState>, limits: TraceLimits, prices: Map<string, PriceTable>): BatchMerge {
  const changedSpans = new Map<string, Map<string, StoredSpan>>();
  const changedTraces = new Set<string>();
  const changedAwaiting = new Map<string, Set<string>>();
  const dropped = new Map<string, DroppedParts>();
  for (const message of messages) {
    const key = keyOf(message.projectId, message.trace.id);
    const state = states.get(key);
    // media-service's attachments apply to the trace as stored; one for a trace not (yet) at hand here makes none.
    if (message.media && !state) continue;
    const input = priceTrace(message.media ? mediaAttachmentInput(state!, message.media) : message.trace, state, prices.get(message.projectId)!);
    const merged = mergeTrace(message.projectId, state, input, message.receivedAt, limits);
    if (merged.dropped) dropped.set(message.ingestId, merged.dropped);
    const spans = state?.spans ?? new Map<string, StoredSpan>();
    for (const span of merged.changedSpans) spans.set(span.id, span);
    states.set(key, { trace: merged.trace, spans, tree: merged.tree });
    for (const parentId of merged.changedAwaiting) changedAwaiting.set(key, (changedAwaiting.get(key) ?? new Set<string>()).add(parentId));
    if (!merged.changed) continue;
    changedTraces.add(key);
    const spansOfTrace = changedSpans.get(key) ?? new Map<string, StoredSpan>();
    for (const span of merged.changedSpans) spansOfTrace.set(span.id, span);
    changedSpans.set(key, spansOfTrace);
  }
  return { states, changedTraces, changedSpans, changedAwaiting, dropped };
}

/** A trace the batch writes: its row, its changed spans, and its tree with the awaiting entries that changed. */
interface WrittenTrace {
  trace: StoredTrace;
  spans: Map<string, StoredSpan>;
  tree: UsageTree;
  awaiting: ReadonlySet<string>;
}

const writtenTrace = (batch: BatchMerge, key: string): WrittenTrace => {
  const state = batch.states.get(key)!;
  return {
    trace: state.trace,
    spans: batch.changedSpans.get(key) ?? new Map<string, StoredSpan>(),
    tree: state.tree ?? emptyUsageTree(),
    awaiting: batch.changedAwaiting.get(key) ?? new Set(),
  };
};

/**
 * The media references without `mediaId` in the outputs written: to be copied. Every output
 * written is looked at, not only those the batch sent: a merge that wrote a span back as it
 * was read (an attachment it raced with on another lane, a client resending the url) finds the
 * reference again. An output that is not an object costs one `typeof` (uncopiedMediaIn).
 */
function uncopiedMedia(written: readonly { trace: StoredTrace; spans: Map<string, StoredSpan> }[]): QueuedMedia[] {
  const found: QueuedMedia[] = [];
  for (const { trace, spans } of written) {
    const place = { projectId: trace.projectId, traceId: trace.id };
    for (const reference of uncopiedMediaIn(trace.output)) found.push({ ...place, spanId: null, ...reference });
    for (const span of spans.values()) {
      for (const reference of uncopiedMediaIn(span.output)) found.push({ ...place, spanId: span.id, ...reference });
    }
  }
  return found;
}

/**
 * Stores a batch of ingest messages in one transaction: merges every message in order in
 * memory, then writes each changed trace and span once with multi-row statements, with a
 * receipt per message for `Prefer: wait`.
 *
 * Most batches bring traces the store has not seen (a benchmark task's trace, a pipeline
 * sending each trace once), so the batch's traces are first inserted as if new, where their
 * key is free; only those already stored are then read and merged with what they were.
 * A new trace costs no read, and the key's own index decides, whatever the planner's
 * statistics say.
 */
@Injectable()
export class TraceWriter {
  private readonly dialect: Dialect;

  private readonly limits: TraceLimits;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() env?: TraceIngestEnv,
    @Optional() private readonly prices: ModelPriceTables = new ModelPriceTables(),
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.limits = traceLimits(env);
  }

  /** Stores the messages; answers how many media references of the outputs written now wait to be copied. */
  async store(messages: TraceIngestMessage[]): Promise<number> {
    if (!messages.length) return 0;
    return inTransaction(this.dataSource, async (manager) => {
      const prices = await this.prices.tablesFor(manager, new Set(messages.map((m) => m.projectId)));
      const asNew = mergeBatch(messages, new Map(), this.limits, prices);
      const inserted = await this.insertNewTraces(
        manager,
        [...asNew.changedTraces].map((key) => asNew.states.get(key)!.trace),
      );
      const known = messages.filter((m) => !inserted.has(keyOf(m.projectId, m.trace.id)));
      const merged = mergeBatch(known, known.length ? await this.load(manager, known) : new Map<string, TraceState>(), this.limits, prices);
      await this.upsert(
        manager,
        TRACE_TABLE,
        [...merged.changedTraces].map((key) => traceToRow(merged.states.get(key)!.trace)),
      );
      const written = [...inserted].map((key) => writtenTrace(asNew, key));
      for (const key of merged.changedTraces) written.push(writtenTrace(merged, key));
      // What each message lost to the limits, from the pass that stored its trace.
      const knownIds = new Set(known.map((m) => m.ingestId));
      const dropped = new Map<string, DroppedParts>();
      for (const { ingestId } of messages) {
        const parts = (knownIds.has(ingestId) ? merged : asNew).dropped.get(ingestId);
        if (parts) dropped.set(ingestId, parts);
      }
      await this.writeRest(manager, messages, written, dropped);
      await storeStreamScores(manager, messages);
      const media = uncopiedMedia(written);
      if (media.length) await queueMediaReferences(manager, media);
      return media.length;
    });
  }

  /** Inserts the traces whose key is free; answers the keys of those it inserted. */
  private async insertNewTraces(manager: EntityManager, traces: StoredTrace[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (const { sql, params } of insertAbsentStatements(this.dialect, TRACE_TABLE, traces.map(traceToRow))) {
      // RETURNING project_id, id
      for (const [projectId, id] of await selectArrays(manager, sql, params, KEPT)) inserted.add(keyOf(projectId as string, id as string));
    }
    return inserted;
  }

  /** The stored rows of the batch's traces, and of the spans its messages name. */
  private async load(manager: EntityManager, messages: TraceIngestMessage[]): Promise<Map<string, TraceState>> {
    const dialect = this.dialect;
    const states = new Map<string, TraceState>();
    const byProject = new Map<string, Map<string, Set<string>>>();
    for (const message of messages) {
      const { projectId, trace } = message;
      const traces = byProject.get(projectId) ?? new Map<string, Set<string>>();
      const spanIds = traces.get(trace.id) ?? new Set<string>();
      for (const span of trace.spans) spanIds.add(span.id);
      for (const { spanId } of message.media ?? []) if (spanId !== null) spanIds.add(spanId);
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
        if (state && traces.get(state.trace.id)!.has(row.id as string)) keepStoredSpan(state, row);
      }
    }
    await loadUsageTrees(manager, dialect, states, messages);
    return states;
  }

  /**
   * The stored rows of these traces of the project. PostgreSQL: one primary-key probe per id,
   * a plan that holds without statistics. On a table not yet analyzed, `id IN (…)` was planned
   * as a scan of all the project's traces through its start-time index, and the batch's read
   * grew with the table; so was a plain lateral join, flattened into a hash join. `OFFSET 0`
   * keeps the subquery a probe per id.
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

  /** Awaiting entries gone: their parent arrived, or what hung from it moved or stopped carrying anything. */
  private async deleteAwaiting(manager: EntityManager, trace: StoredTrace, parentIds: string[]): Promise<void> {
    if (!parentIds.length) return;
    const sql = new SqlBuilder(this.dialect);
    await manager.query(
      `DELETE FROM span_usage_awaiting WHERE project_id = ${sql.bind(trace.projectId)} AND trace_id = ${sql.bind(trace.id)} AND parent_id IN (${sql.bindAll(parentIds)})`,
      sql.params,
    );
  }

  private async upsert(manager: EntityManager, table: UpsertTable, rows: unknown[][]): Promise<void> {
    for (const { sql, params } of upsertStatements(this.dialect, table, rows)) await runStatement(manager, sql, params, KEPT);
  }

  /** The tags, changed spans and awaiting entries of the traces written, and the receipts of the batch's messages that want one. */
  private async writeRest(manager: EntityManager, messages: TraceIngestMessage[], written: WrittenTrace[], dropped: Map<string, DroppedParts>): Promise<void> {
    // Loops, not flatMap: far faster over a large batch.
    const tagRows: unknown[][] = [];
    const spanRows: unknown[][] = [];
    const awaitingRows: unknown[][] = [];
    for (const { trace, spans, tree, awaiting } of written) {
      for (const tag of trace.tags) tagRows.push([trace.projectId, tag, trace.id]);
      for (const span of spans.values()) spanRows.push(spanToRow(trace.projectId, trace.id, span, tree.below.get(span.id)));
      for (const parentId of awaiting) {
        const counts = tree.awaiting.get(parentId);
        if (counts) awaitingRows.push(awaitingRow(trace.projectId, trace.id, parentId, counts));
      }
      await this.deleteAwaiting(
        manager,
        trace,
        [...awaiting].filter((parentId) => !tree.awaiting.has(parentId)),
      );
    }
    await this.upsert(manager, TAG_TABLE, tagRows);
    await this.upsert(manager, SPAN_TABLE, spanRows);
    await this.upsert(manager, AWAITING_TABLE, awaitingRows);
    const storedAt = Date.now();
    await this.upsert(
      manager,
      RECEIPT_TABLE,
      messages.filter((m) => m.receipt !== false).map((m) => [m.ingestId, m.projectId, m.trace.id, storedAt, toJson(dropped.get(m.ingestId))]),
    );
  }
}
