import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';

// What other services keep a copy of and must be told (migration QueueFacts): written in the
// transaction of the change, deleted once the service it is for has taken it.

/**
 * `gate-benchmark` and `gate-run` go to prompt-service (what a release's gate judges by),
 * `secret-references` to project-service (which secrets a benchmark names).
 */
export type FactKind = 'gate-benchmark' | 'gate-run' | 'secret-references';

export interface QueuedFact {
  id: number;
  kind: FactKind;
  subjectId: string;
}

export async function queueFacts(tx: EntityManager, kind: FactKind, subjectIds: readonly string[]): Promise<void> {
  const queuedAt = Date.now();
  for (const subjectId of subjectIds) {
    const sql = new SqlBuilder(dialectOf(tx));
    await tx.query(`INSERT INTO fact_outbox (kind, subject_id, queued_at) VALUES (${sql.bindAll([kind, subjectId, queuedAt])})`, sql.params);
  }
}

/** A dataset's new version is a new fact of every live benchmark on it. */
export async function queueBenchmarksOnDataset(tx: EntityManager, datasetId: string): Promise<void> {
  const sql = new SqlBuilder(dialectOf(tx));
  await tx.query(
    `INSERT INTO fact_outbox (kind, subject_id, queued_at)
     SELECT 'gate-benchmark', id, ${sql.bind(Date.now())} FROM benchmarks WHERE dataset_id = ${sql.bind(datasetId)} AND deleted_at IS NULL`,
    sql.params,
  );
}

/** The oldest `limit` facts waiting. */
export async function oldestFacts(manager: EntityManager, limit: number): Promise<QueuedFact[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Array<{ id: string | number; kind: FactKind; subject_id: string }> = await manager.query(
    `SELECT id, kind, subject_id FROM fact_outbox ORDER BY id LIMIT ${sql.bind(limit)}`,
    sql.params,
  );
  return rows.map((row) => ({ id: Number(row.id), kind: row.kind, subjectId: row.subject_id }));
}

export async function deleteFacts(manager: EntityManager, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const sql = new SqlBuilder(dialectOf(manager));
  await manager.query(`DELETE FROM fact_outbox WHERE id IN (${sql.bindAll(ids)})`, sql.params);
}
