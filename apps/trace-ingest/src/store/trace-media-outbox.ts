import type { TraceMediaReference } from '@cinetrace/contracts';
import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { upsertStatements, type UpsertTable } from './sql-builder';

// The media references of stored outputs waiting to be handed to media-service (migration
// QueueTraceMedia): written in the trace's own transaction, deleted once media-service took them.

/** A reference already waiting stays as it is (DO NOTHING): it is the same work. */
// prettier-ignore
const OUTBOX_TABLE: UpsertTable = {
  name: 'trace_media_outbox',
  columns: [['project_id', 'text'], ['trace_id', 'text'], ['span_id', 'text'], ['url', 'text'], ['content_type', 'text'], ['queued_at', 'int8']],
  key: ['project_id', 'trace_id', 'span_id', 'url'],
  update: [],
};

/** The trace's own output has no span: '' in the key (which cannot hold a NULL). */
const TRACE_OUTPUT = '';

/** A waiting reference of a project's trace. */
export interface QueuedMedia extends TraceMediaReference {
  projectId: string;
}

export async function queueMediaReferences(manager: EntityManager, references: readonly QueuedMedia[]): Promise<void> {
  const queuedAt = Date.now();
  const rows = references.map((r) => [r.projectId, r.traceId, r.spanId ?? TRACE_OUTPUT, r.url, r.contentType, queuedAt]);
  for (const { sql, params } of upsertStatements(dialectOf(manager), OUTBOX_TABLE, rows)) await manager.query(sql, params);
}

/** The oldest `limit` waiting references. */
export async function oldestQueuedMedia(manager: EntityManager, limit: number): Promise<QueuedMedia[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Record<string, string>[] = await manager.query(
    `SELECT project_id, trace_id, span_id, url, content_type FROM trace_media_outbox ORDER BY queued_at LIMIT ${sql.bind(limit)}`,
    sql.params,
  );
  return rows.map((row) => ({
    projectId: row.project_id,
    traceId: row.trace_id,
    spanId: row.span_id === TRACE_OUTPUT ? null : row.span_id,
    url: row.url,
    contentType: row.content_type,
  }));
}

/** Removes references media-service has taken. */
export async function deleteQueuedMedia(manager: EntityManager, references: readonly QueuedMedia[]): Promise<void> {
  for (const r of references) {
    const sql = new SqlBuilder(dialectOf(manager));
    await manager.query(
      `DELETE FROM trace_media_outbox WHERE project_id = ${sql.bind(r.projectId)} AND trace_id = ${sql.bind(r.traceId)}
         AND span_id = ${sql.bind(r.spanId ?? TRACE_OUTPUT)} AND url = ${sql.bind(r.url)}`,
      sql.params,
    );
  }
}
