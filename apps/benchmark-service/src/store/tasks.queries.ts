import { dialectOf, entityRows, selectArrays, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { In, MoreThan } from 'typeorm';
import type { Run } from './run.entity';
import { Task } from './task.entity';

/** Tasks not yet ended. */
const OPEN: Task['status'][] = ['pending', 'running'];
/** OPEN as SQL's list of literals (constants, not input): written once, not on every fill. */
const OPEN_SQL = OPEN.map((status) => `'${status}'`).join(', ');

/** What applying an event reads and writes of a task: not its input, expected output and metadata, which can be large. */
const RESULT_FIELDS = ['id', 'runId', 'status', 'attempts', 'output', 'scores', 'error', 'usage', 'costUsd', 'startedAt', 'finishedAt', 'durationMs'] as const;

/** The run's task of that item, within the project: found by (run, item index), the unique index, not by reading the run's tasks. */
export const findTaskOfItem = (
  manager: EntityManager,
  { projectId, runId, itemId, itemIndex }: { projectId: string; runId: string; itemId: string; itemIndex: number },
): Promise<Pick<Task, 'status' | 'output'> | null> => manager.findOne(Task, { select: { status: true, output: true }, where: { runId, itemIndex, projectId, itemId } });

/** The run's tasks in item order, `rows` of them from after the item index `after`. */
export const listTasksOfRun = (manager: EntityManager, runId: string, status: Task['status'] | undefined, after: number | undefined, rows: number): Promise<Task[]> =>
  manager.find(Task, {
    where: { runId, ...(status !== undefined ? { status } : {}), ...(after !== undefined ? { itemIndex: MoreThan(after) } : {}) },
    order: { itemIndex: 'ASC' },
    take: rows,
  });

/** The result fields of these tasks (see RESULT_FIELDS). By primary key alone: with run_id too, SQLite picks the (run_id, item_index) index and reads the whole run. */
export async function findTaskResults(tx: EntityManager, ids: string[]): Promise<Task[]> {
  const tasks = entityRows(tx, Task, RESULT_FIELDS);
  // One text for any number of ids, kept prepared: an array on PostgreSQL, a JSON list on SQLite.
  const [where, param] = dialectOf(tx) === 'postgres' ? ['id = ANY($1::varchar[])', ids] : ['id IN (SELECT value FROM json_each(?))', JSON.stringify(ids)];
  const rows = await selectArrays(tx, `SELECT ${tasks.columns} FROM tasks WHERE ${where}`, [param], { kept: true });
  return rows.map((row) => tasks.fromRow(row));
}

/** What says which of a run's tasks were handed over: the item index it handed over through. */
type HandOverMark = Pick<Run, 'id' | 'handedOverThrough'>;

/**
 * The condition on a run's open tasks that were handed over to the executors (open, at or
 * below its mark), one text for the sweep's reads and a fill's count. The values are bound.
 */
function openHandedOver(sql: SqlBuilder, run: HandOverMark): string {
  return `run_id = ${sql.bind(run.id)} AND status IN (${OPEN_SQL}) AND item_index <= ${sql.bind(run.handedOverThrough)}`;
}

/** The run's open tasks that were handed over to the executors. */
export async function findOpenHandedOver(manager: EntityManager, run: HandOverMark): Promise<Task[]> {
  const tasks = entityRows(manager, Task);
  const sql = new SqlBuilder(dialectOf(manager));
  const rows = await selectArrays(manager, `SELECT ${tasks.columns} FROM tasks WHERE ${openHandedOver(sql, run)}`, sql.params, { kept: true });
  return rows.map((row) => tasks.fromRow(row));
}

/** The ids of the run's open tasks that were handed over (what the executors must be told of). */
export async function openHandedOverIds(tx: EntityManager, run: HandOverMark): Promise<string[]> {
  const sql = new SqlBuilder(dialectOf(tx));
  const rows = await selectArrays(tx, `SELECT id FROM tasks WHERE ${openHandedOver(sql, run)}`, sql.params, { kept: true });
  return rows.map(([id]) => String(id));
}

// A fill's two reads (one per concurrency / 2 tasks ended) are raw statements kept prepared,
// as the run's on the same path (runs.queries.ts).

export async function countOpenHandedOver(tx: EntityManager, run: HandOverMark): Promise<number> {
  const sql = new SqlBuilder(dialectOf(tx));
  const [[count]] = await selectArrays(tx, `SELECT count(*) FROM tasks WHERE ${openHandedOver(sql, run)}`, sql.params, { kept: true });
  return Number(count);
}

/** The run's next `limit` tasks to hand over: the pending ones past its mark, in item order. */
export async function nextTasksToHandOver(tx: EntityManager, run: HandOverMark, limit: number): Promise<Task[]> {
  const tasks = entityRows(tx, Task);
  const sql = new SqlBuilder(dialectOf(tx));
  const text = `SELECT ${tasks.columns} FROM tasks WHERE run_id = ${sql.bind(run.id)} AND status = 'pending' AND item_index > ${sql.bind(run.handedOverThrough)} ORDER BY item_index LIMIT ${sql.bind(limit)}`;
  const rows = await selectArrays(tx, text, sql.params, { kept: true });
  return rows.map((row) => tasks.fromRow(row));
}

/** The run's open tasks end `cancelled`; a task that had started gets its duration. */
export async function cancelOpenTasks(tx: EntityManager, runId: string, now: number): Promise<void> {
  await tx.update(
    Task,
    { runId, status: In(OPEN) },
    { status: 'cancelled', finishedAt: now, durationMs: () => `CASE WHEN started_at IS NULL THEN NULL ELSE ${Number(now)} - started_at END` },
  );
}

/** An attempt that did not run to its end no longer counts: the task's count goes back to `attempt - 1`, if it still is `attempt` and the task is open. */
export async function uncountAttempt(manager: EntityManager, id: string, attempt: number): Promise<void> {
  await manager.update(Task, { id, attempts: attempt, status: In(OPEN) }, { attempts: attempt - 1 });
}

/** The run's open tasks wait again (their attempts kept); answers how many wait. The caller takes back the run's hand-over mark. */
export async function requeueOpenTasks(tx: EntityManager, runId: string): Promise<number> {
  await tx.update(Task, { runId, status: In(OPEN) }, { status: 'pending' });
  return tx.count(Task, { where: { runId, status: 'pending' } });
}
