import { dialectOf, entityRows, insertRows, runStatement, selectArrays, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { In, IsNull, LessThan, MoreThan, Not } from 'typeorm';
import { Run } from './run.entity';

export const insertRun = (tx: EntityManager, run: Run): Promise<void> => insertRows(tx, Run, run);

// The run's reads and writes on the task-event and fill paths (several a second per run) are
// raw statements kept prepared: TypeORM's find and update cost benchmark-service more than the
// statements themselves. entityRows hydrates the row as find would.

export async function findRun(manager: EntityManager, id: string): Promise<Run | null> {
  const runs = entityRows(manager, Run);
  const sql = new SqlBuilder(dialectOf(manager));
  const [row] = await selectArrays(manager, `SELECT ${runs.columns} FROM runs WHERE id = ${sql.bind(id)}`, sql.params, { kept: true });
  return row ? runs.fromRow(row) : null;
}

/** Reads a run and, on PostgreSQL, locks it (SQLite writes one transaction at a time): its counters change only one transaction at a time. */
export async function lockRun(tx: EntityManager, where: { id: string } | { activeBenchmarkId: string }): Promise<Run | null> {
  const runs = entityRows(tx, Run);
  const [column, value] = 'id' in where ? ['id', where.id] : ['active_benchmark_id', where.activeBenchmarkId];
  const sql = new SqlBuilder(dialectOf(tx));
  const lock = sql.dialect === 'postgres' ? ' FOR UPDATE' : '';
  const [row] = await selectArrays(tx, `SELECT ${runs.columns} FROM runs WHERE ${column} = ${sql.bind(value)}${lock}`, sql.params, { kept: true });
  return row ? runs.fromRow(row) : null;
}

/** The benchmark's run that is queued or running, if any. */
export const findActiveRunOf = (tx: EntityManager, benchmarkId: string): Promise<Run | null> => tx.findOneBy(Run, { activeBenchmarkId: benchmarkId });

export const findRunOfBenchmark = (manager: EntityManager, projectId: string, benchmarkId: string, id: string): Promise<Run | null> =>
  manager.findOneBy(Run, { id, benchmarkId, projectId });

export const findRunsById = (manager: EntityManager, ids: string[]): Promise<Run[]> => (ids.length ? manager.findBy(Run, { id: In(ids) }) : Promise.resolve([]));

/** The benchmark's runs, newest first, `rows` of them from after the key `after` (what a console polls while a run goes on). */
export async function listRunsOfBenchmark(manager: EntityManager, projectId: string, benchmarkId: string, after: string | undefined, rows: number): Promise<Run[]> {
  const runs = entityRows(manager, Run);
  const sql = new SqlBuilder(dialectOf(manager));
  const where = `benchmark_id = ${sql.bind(benchmarkId)} AND project_id = ${sql.bind(projectId)}${after !== undefined ? ` AND id < ${sql.bind(after)}` : ''}`;
  const text = `SELECT ${runs.columns} FROM runs WHERE ${where} ORDER BY id DESC LIMIT ${sql.bind(rows)}`;
  return (await selectArrays(manager, text, sql.params, { kept: true })).map((row) => runs.fromRow(row));
}

/** Every run that is queued or running. */
export const findActiveRuns = (manager: EntityManager): Promise<Run[]> => manager.find(Run, { where: { activeBenchmarkId: Not(IsNull()) } });

export async function activeRunIds(manager: EntityManager): Promise<string[]> {
  const runs = await manager.find(Run, { select: { id: true }, where: { activeBenchmarkId: Not(IsNull()) } });
  return runs.map((run) => run.id);
}

export const countActiveRunsOfProject = (tx: EntityManager, projectId: string): Promise<number> => tx.count(Run, { where: { projectId, activeBenchmarkId: Not(IsNull()) } });

/** When the project's runs created after `since` were created, oldest first. */
export async function runStartsSince(tx: EntityManager, projectId: string, since: number): Promise<number[]> {
  const runs = await tx.find(Run, { select: { createdAt: true }, where: { projectId, createdAt: MoreThan(since) }, order: { createdAt: 'ASC' } });
  return runs.map((run) => run.createdAt);
}

/** The columns of a run that task events and cancellation move. */
const PROGRESS = ['status', 'activeBenchmarkId', 'pending', 'running', 'completed', 'failed', 'cancelled', 'scoreTotals', 'costUsd', 'startedAt', 'finishedAt'] as const;

/** Writes the columns of a run that task events and cancellation move. */
export async function updateRunProgress(tx: EntityManager, run: Run): Promise<void> {
  const runs = entityRows(tx, Run);
  const sql = new SqlBuilder(dialectOf(tx));
  const assignments = PROGRESS.map((property) => `${runs.column(property)} = ${sql.bind(runs.stored(property, run[property]))}`).join(', ');
  await runStatement(tx, `UPDATE runs SET ${assignments} WHERE id = ${sql.bind(run.id)}`, sql.params, { kept: true });
}

/** The run's open tasks all wait again, none handed over: `pending` of them, none running. */
export async function resetRunWindow(tx: EntityManager, id: string, pending: number): Promise<void> {
  await tx.update(Run, { id }, { pending, running: 0, handedOverThrough: -1 });
}

/** The run has handed its tasks over through this item index (the mark only moves forward). */
export async function markHandedOverThrough(tx: EntityManager, id: string, itemIndex: number): Promise<void> {
  const sql = new SqlBuilder(dialectOf(tx));
  const text = `UPDATE runs SET handed_over_through = ${sql.bind(itemIndex)} WHERE id = ${sql.bind(id)} AND handed_over_through < ${sql.bind(itemIndex)}`;
  await runStatement(tx, text, sql.params, { kept: true });
}
