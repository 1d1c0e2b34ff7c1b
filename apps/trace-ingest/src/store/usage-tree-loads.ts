import type { SpanInput, TraceIngestMessage } from '@cinetrace/contracts';
import { Dialect, SqlBuilder } from '@cinetrace/persistence';
import { emptyUsageTree, isEmptyCounts, type TraceState } from '@cinetrace/traces';
import type { EntityManager } from 'typeorm';
import { spanFromRow } from './trace-rows';
import { awaitingFromRow, belowFromRow } from './usage-tree-rows';

type Row = Record<string, unknown>;

/** A stored span the merge is given, with its counts of what its children's subtrees carry. */
export function keepStoredSpan(state: TraceState, row: Row): void {
  const id = row.id as string;
  state.spans.set(id, spanFromRow(row));
  const below = belowFromRow(row);
  if (below) (state.tree ??= emptyUsageTree()).below.set(id, below);
}

/** What the batch says of one stored trace's spans, and what was read for its tree. */
interface BatchSpans {
  projectId: string;
  state: TraceState;
  /** Per span the batch names: the parents it gives it (a span may come in several messages). */
  parents: Map<string, Set<string>>;
  /** Spans the batch sends with what may move the sums: usage, a cost, or a model (a cost may be priced from it). */
  moving: Set<string>;
  /** Ids known to name no stored span (created by the batch, or looked for and not found). */
  notStored: Set<string>;
  /** Ids whose parents are followed already. */
  expanded: Set<string>;
  /** Ids not stored whose awaiting entries are still to be read. */
  missing: Set<string>;
}

const movesSums = (span: SpanInput) => span.usage !== undefined || span.costUsd !== undefined || (span.model !== undefined && span.model !== null);

/**
 * Completes the states `load` read (the traces, and the stored spans the batch names) with
 * what the usage tree of each needs (libs/traces, usage-tree.ts): the awaiting entries of the
 * spans the batch creates, and, for each span whose sums may move, its stored ancestors (one
 * recursive statement up the chains, for every trace of a project at once) and the awaiting
 * entries of the parents on those chains that are not stored. A trace none of whose spans ever carried
 * usage or a cost has nothing awaiting: it is not asked for any.
 */
export async function loadUsageTrees(manager: EntityManager, dialect: Dialect, states: Map<string, TraceState>, messages: readonly TraceIngestMessage[]): Promise<void> {
  const byTrace = new Map<string, BatchSpans>();
  for (const message of messages) {
    // media-service's attachments change outputs only.
    if (message.media) continue;
    const key = `${message.projectId}/${message.trace.id}`;
    const state = states.get(key);
    if (!state) continue;
    let batch = byTrace.get(key);
    if (!batch) {
      batch = { projectId: message.projectId, state, parents: new Map(), moving: new Set(), notStored: new Set(), expanded: new Set(), missing: new Set() };
      byTrace.set(key, batch);
    }
    for (const span of message.trace.spans) {
      const parents = batch.parents.get(span.id) ?? new Set<string>();
      if (typeof span.parentId === 'string') parents.add(span.parentId);
      batch.parents.set(span.id, parents);
      if (movesSums(span)) batch.moving.add(span.id);
    }
  }
  const traces = [...byTrace.values()];
  const mayAwait = (batch: BatchSpans) => Object.keys(batch.state.trace.usage).length > 0 || batch.state.trace.costSpans > 0;

  // The spans the batch creates (`load` read every stored one it names) may take over what waits for them.
  for (const batch of traces) {
    for (const id of batch.parents.keys()) if (!batch.state.spans.has(id)) batch.notStored.add(id);
    if (mayAwait(batch)) for (const id of batch.notStored) batch.missing.add(id);
  }
  await readAwaiting(manager, dialect, traces);

  // Walks start from the spans sent with usage, a cost or a model, and from those whose subtree already carries something.
  const work: Array<[BatchSpans, string]> = [];
  for (const batch of traces) {
    const { state } = batch;
    for (const id of batch.parents.keys()) {
      const stored = state.spans.get(id);
      const carries = stored !== undefined && (stored.usage !== null || stored.costUsd !== null || !isEmptyCounts(state.tree?.below.get(id)));
      if (batch.moving.has(id) || carries || state.tree?.awaiting.has(id)) work.push([batch, id]);
    }
  }
  // Up each chain: a parent at hand is followed at once; those not yet looked for are read, with every stored ancestor above them, in one statement per round (more rounds only where the batch itself links a chain on).
  for (;;) {
    const round = new Map<BatchSpans, Set<string>>();
    for (let next = work.pop(); next; next = work.pop()) {
      const [batch, id] = next;
      if (batch.expanded.has(id)) continue;
      batch.expanded.add(id);
      const parents = new Set(batch.parents.get(id));
      const storedParent = batch.state.spans.get(id)?.parentId;
      if (storedParent) parents.add(storedParent);
      for (const parentId of parents) {
        if (batch.state.spans.has(parentId) || batch.notStored.has(parentId)) work.push([batch, parentId]);
        else round.set(batch, (round.get(batch) ?? new Set<string>()).add(parentId));
      }
    }
    if (!round.size) break;
    const notFound = await readAncestors(manager, dialect, round);
    for (const [batch, ids] of round) {
      for (const id of [...ids, ...(notFound.get(batch) ?? [])]) {
        if (!batch.state.spans.has(id)) {
          batch.notStored.add(id);
          if (mayAwait(batch)) batch.missing.add(id);
        }
        work.push([batch, id]);
      }
    }
  }
  await readAwaiting(manager, dialect, traces);
}

/**
 * The stored spans of this round's ids and all their stored ancestors, per project, into
 * their traces' states: one recursive statement up the stored parent links (UNION stops at
 * a span already reached). Answers, per trace, the ids reached that no stored span has
 * (the top of a chain whose parent is not stored).
 */
async function readAncestors(manager: EntityManager, dialect: Dialect, round: Map<BatchSpans, Set<string>>): Promise<Map<BatchSpans, string[]>> {
  const notFound = new Map<BatchSpans, string[]>();
  for (const [projectId, batches] of groupByProject(round.keys())) {
    // Bound in the order the text uses them: SQLite's placeholders are positional.
    const sql = new SqlBuilder(dialect);
    const seeds: Array<[string, string]> = [];
    for (const batch of batches) for (const id of round.get(batch)!) seeds.push([batch.state.trace.id, id]);
    const seedRows =
      dialect === 'postgres'
        ? `SELECT * FROM unnest(${sql.bind(seeds.map(([traceId]) => traceId))}::text[], ${sql.bind(seeds.map(([, id]) => id))}::text[])`
        : `VALUES ${seeds.map(([traceId, id]) => `(${sql.bind(traceId)}, ${sql.bind(id)})`).join(', ')}`;
    const projectInChain = sql.bind(projectId);
    const projectInAnswer = sql.bind(projectId);
    const rows: Row[] = await manager.query(
      `WITH RECURSIVE chain(reached_trace, reached_id) AS (
         ${seedRows}
         UNION
         SELECT CAST(s.trace_id AS text), CAST(s.parent_id AS text) FROM chain c JOIN spans s ON s.project_id = ${projectInChain} AND s.trace_id = c.reached_trace AND s.id = c.reached_id
           WHERE s.parent_id IS NOT NULL)
       SELECT c.reached_trace, c.reached_id, s.* FROM chain c
         LEFT JOIN spans s ON s.project_id = ${projectInAnswer} AND s.trace_id = c.reached_trace AND s.id = c.reached_id`,
      sql.params,
    );
    const byTrace = new Map(batches.map((b) => [b.state.trace.id, b]));
    for (const row of rows) {
      const batch = byTrace.get(row.reached_trace as string)!;
      const id = row.reached_id as string;
      if (row.id === null || row.id === undefined) notFound.set(batch, [...(notFound.get(batch) ?? []), id]);
      else if (!batch.state.spans.has(id)) keepStoredSpan(batch.state, row);
    }
  }
  return notFound;
}

/** The awaiting entries of each trace's missing ids, per project, into their trees; the ids are then read. */
async function readAwaiting(manager: EntityManager, dialect: Dialect, traces: BatchSpans[]): Promise<void> {
  const asking = traces.filter((batch) => batch.missing.size > 0);
  for (const [projectId, batches] of groupByProject(asking)) {
    const sql = new SqlBuilder(dialect);
    const ids = new Set<string>();
    for (const batch of batches) for (const id of batch.missing) ids.add(id);
    const rows: Row[] = await manager.query(
      `SELECT trace_id, parent_id, usage, cost FROM span_usage_awaiting WHERE project_id = ${sql.bind(projectId)}
         AND trace_id IN (${sql.bindAll(batches.map((b) => b.state.trace.id))}) AND parent_id IN (${sql.bindAll([...ids])})`,
      sql.params,
    );
    const byTrace = new Map(batches.map((b) => [b.state.trace.id, b]));
    for (const row of rows) {
      const batch = byTrace.get(row.trace_id as string);
      if (batch && batch.missing.has(row.parent_id as string)) (batch.state.tree ??= emptyUsageTree()).awaiting.set(row.parent_id as string, awaitingFromRow(row));
    }
  }
  for (const batch of asking) batch.missing.clear();
}

function groupByProject(batches: Iterable<BatchSpans>): Map<string, BatchSpans[]> {
  const grouped = new Map<string, BatchSpans[]>();
  for (const batch of batches) grouped.set(batch.projectId, [...(grouped.get(batch.projectId) ?? []), batch]);
  return grouped;
}
