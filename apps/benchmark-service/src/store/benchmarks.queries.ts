import { dialectOf, entityRows, insertRows, selectArrays, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { IsNull, LessThan } from 'typeorm';
import { Benchmark } from './benchmark.entity';
import { forUpdate } from './row-locks';

export const insertBenchmark = (tx: EntityManager, benchmark: Benchmark): Promise<void> => insertRows(tx, Benchmark, benchmark);

/** A benchmark of the project that is not deleted. Every read of a benchmark's runs and tasks asks first (a console polls them): a raw statement kept prepared. */
export async function findLiveBenchmark(manager: EntityManager, projectId: string, id: string): Promise<Benchmark | null> {
  const benchmarks = entityRows(manager, Benchmark);
  const sql = new SqlBuilder(dialectOf(manager));
  const text = `SELECT ${benchmarks.columns} FROM benchmarks WHERE id = ${sql.bind(id)} AND project_id = ${sql.bind(projectId)} AND deleted_at IS NULL`;
  const [row] = await selectArrays(manager, text, sql.params, { kept: true });
  return row ? benchmarks.fromRow(row) : null;
}

/**
 * Reads a live benchmark of the project and, on PostgreSQL, locks its row until the
 * transaction ends: a start, a delete and a run's end then take turns on it.
 */
export const lockLiveBenchmark = (tx: EntityManager, projectId: string, id: string): Promise<Benchmark | null> =>
  tx.findOne(Benchmark, { where: { id, projectId, deletedAt: IsNull() }, ...forUpdate(tx) });

/** A live benchmark built on the dataset, if any. */
export const findLiveBenchmarkOnDataset = (manager: EntityManager, datasetId: string): Promise<Benchmark | null> =>
  manager.findOneBy(Benchmark, { datasetId, deletedAt: IsNull() });

/** Live benchmarks of the project, newest first, `rows` of them from after the key `after`. */
export function listLiveBenchmarks(manager: EntityManager, projectId: string, filters: { status?: string }, after: string | undefined, rows: number): Promise<Benchmark[]> {
  return manager.find(Benchmark, {
    where: {
      projectId,
      deletedAt: IsNull(),
      ...(filters.status !== undefined ? { status: filters.status as Benchmark['status'] } : {}),
      ...(after !== undefined ? { id: LessThan(after) } : {}),
    },
    order: { id: 'DESC' },
    take: rows,
  });
}

export async function softDeleteBenchmark(tx: EntityManager, id: string, now: number): Promise<void> {
  await tx.update(Benchmark, { id, deletedAt: IsNull() }, { deletedAt: now, updatedAt: now });
}

/** A run of the benchmark started: it is the benchmark's last run, and the benchmark is queued. */
export async function markBenchmarkQueued(tx: EntityManager, id: string, runId: string, now: number): Promise<void> {
  await tx.update(Benchmark, { id }, { status: 'queued', lastRunId: runId, updatedAt: now });
}

/** The benchmark's status follows its last run's: a run that is no longer the last one moves nothing. */
export async function followLastRun(tx: EntityManager, id: string, runId: string, status: Benchmark['status'], now: number): Promise<void> {
  await tx.update(Benchmark, { id, lastRunId: runId }, { status, updatedAt: now });
}
