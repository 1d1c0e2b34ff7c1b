import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { BenchmarkSecret } from './benchmark-secret.entity';
import { Benchmark } from './benchmark.entity';

export const insertBenchmarkSecrets = (tx: EntityManager, rows: BenchmarkSecret[]): Promise<void> => insertRows(tx, BenchmarkSecret, rows);

/**
 * Ids of live benchmarks of the organization that name the secret, newest first, at most
 * `limit`. A join, which find options cannot say (the entities hold no relation): the
 * query builder of the same EntityManager.
 */
export async function liveBenchmarksNamingSecret(manager: EntityManager, orgId: string, name: string, limit: number): Promise<string[]> {
  const rows = await manager
    .createQueryBuilder(BenchmarkSecret, 's')
    .innerJoin(Benchmark, 'b', 'b.id = s.benchmark_id')
    .select('s.benchmark_id', 'id')
    .where('s.org_id = :orgId AND s.secret_name = :name AND b.deleted_at IS NULL', { orgId, name })
    .orderBy('s.benchmark_id', 'DESC')
    .limit(limit)
    .getRawMany<{ id: string }>();
  return rows.map((r) => r.id);
}
