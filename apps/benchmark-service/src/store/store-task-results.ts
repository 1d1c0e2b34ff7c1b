import { dialectOf, jsonText, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import type { Task } from './task.entity';

/** Tasks per statement: 11 parameters each stays within SQLite's and PostgreSQL's parameter limits. */
const TASKS_PER_STATEMENT = 500;

/** The result columns a task event moves, with the SQL type each value is cast to (PostgreSQL reads bare parameters as text). */
const RESULT_COLUMNS: ReadonlyArray<[column: string, type: string, value: (task: Task) => unknown]> = [
  ['status', 'varchar', (task) => task.status],
  ['attempts', 'integer', (task) => task.attempts],
  ['output', 'text', (task) => jsonText.to(task.output)],
  ['scores', 'text', (task) => JSON.stringify(task.scores)],
  ['error', 'text', (task) => task.error],
  ['usage', 'text', (task) => jsonText.to(task.usage)],
  ['cost_usd', 'double precision', (task) => task.costUsd],
  ['started_at', 'bigint', (task) => task.startedAt],
  ['finished_at', 'bigint', (task) => task.finishedAt],
  ['duration_ms', 'bigint', (task) => task.durationMs],
];

/**
 * Writes the results of many tasks in one statement (`UPDATE … FROM (VALUES …)`, which
 * PostgreSQL and SQLite both read): a batch of task events costs one round trip, not one
 * per task. The VALUES columns are named column1… in both dialects.
 */
export async function storeTaskResults(tx: EntityManager, tasks: Task[]): Promise<void> {
  for (let start = 0; start < tasks.length; start += TASKS_PER_STATEMENT) {
    const sql = new SqlBuilder(dialectOf(tx));
    const rows = tasks
      .slice(start, start + TASKS_PER_STATEMENT)
      .map((task) => `(${[sql.bindAs(task.id, 'varchar'), ...RESULT_COLUMNS.map(([, type, value]) => sql.bindAs(value(task), type))].join(', ')})`);
    const assignments = RESULT_COLUMNS.map(([column], i) => `"${column}" = v.column${i + 2}`).join(', ');
    await tx.query(`UPDATE tasks SET ${assignments} FROM (VALUES ${rows.join(', ')}) AS v WHERE tasks.id = v.column1`, sql.params);
  }
}
