import type { BenchmarkSecretReferences } from '@cinetrace/contracts';
import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';

// secret_reference_benchmarks and secret_references (migration RecordSecretReferences): the
// secret names benchmark-service's benchmarks reference, as it tells them.

/**
 * Keeps what a benchmark names, or forgets it once the benchmark is deleted (for good: the
 * benchmark's row keeps `deleted`, so a fact told late or twice brings nothing back). The
 * benchmark's row is written first: it serializes two facts of one benchmark.
 */
export async function recordSecretReferences(tx: EntityManager, fact: BenchmarkSecretReferences): Promise<void> {
  const dialect = dialectOf(tx);
  const sql = new SqlBuilder(dialect);
  const [row]: Array<{ deleted: number | string }> = await tx.query(
    `INSERT INTO secret_reference_benchmarks (benchmark_id, org_id, deleted)
     VALUES (${sql.bind(fact.benchmarkId)}, ${sql.bind(fact.orgId)}, ${sql.bindAs(fact.deleted ? 1 : 0, 'smallint')})
     ON CONFLICT (benchmark_id) DO UPDATE SET deleted = ${dialect === 'postgres' ? 'GREATEST' : 'MAX'}(secret_reference_benchmarks.deleted, excluded.deleted)
     RETURNING deleted`,
    sql.params,
  );
  if (Number(row.deleted) === 1) {
    const del = new SqlBuilder(dialect);
    await tx.query(`DELETE FROM secret_references WHERE benchmark_id = ${del.bind(fact.benchmarkId)}`, del.params);
    return;
  }
  for (const name of fact.names) {
    const ins = new SqlBuilder(dialect);
    await tx.query(
      `INSERT INTO secret_references (org_id, secret_name, benchmark_id) VALUES (${ins.bindAll([fact.orgId, name, fact.benchmarkId])}) ON CONFLICT DO NOTHING`,
      ins.params,
    );
  }
}

/** Ids of live benchmarks of the organization that name the secret, newest first, at most `limit`. */
export async function benchmarksNamingSecret(manager: EntityManager, orgId: string, name: string, limit: number): Promise<string[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Array<{ benchmark_id: string }> = await manager.query(
    `SELECT benchmark_id FROM secret_references WHERE org_id = ${sql.bind(orgId)} AND secret_name = ${sql.bind(name)} ORDER BY benchmark_id DESC LIMIT ${sql.bind(limit)}`,
    sql.params,
  );
  return rows.map((row) => row.benchmark_id);
}
