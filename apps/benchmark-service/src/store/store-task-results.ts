import { dialectOf, jsonText, runStatement, SqlBuilder } from '@cinetrace/persistence';
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
 * PostgreSQL's statement: each column bound as one array and spread by `unnest`, so its text
 * is the same for any number of tasks and is kept prepared on the connection (parsed and
 * planned once, where a VALUES list of each batch's size was parsed and planned every time).
 */
const PG_STORE_RESULTS = `UPDATE tasks SET ${RESULT_COLUMNS.map(([column]) => `"${column}" = v."${column}"`).join(', ')}
  FROM unnest($1::varchar[], ${RESULT_COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')})
  AS v(id, ${RESULT_COLUMNS.map(([column]) => `"${column}"`).join(', ')})
  WHERE tasks.id = v.id`;

/**
 * Writes the results of many tasks in one statement: a batch of task events costs one round
 * trip, not one per task. SQLite (no arrays) reads `UPDATE … FROM (VALUES …)`, whose columns
 * are named column1…, in chunks.
 */
export async function storeTaskResults(tx: EntityManager, tasks: Task[]): Promise<void> {
  if (tasks.length === 0) return;
  if (dialectOf(tx) === 'postgres') {
    const params = [tasks.map((task) => task.id), ...RESULT_COLUMNS.map(([, , value]) => tasks.map(value))];
    return runStatement(tx, PG_STORE_RESULTS, params, { kept: true });
  }
  for (let start = 0; start < tasks.length; start += TASKS_PER_STATEMENT) {
    const sql = new SqlBuilder(dialectOf(tx));
    const rows = tasks
      .slice(start, start + TASKS_PER_STATEMENT)
      .map((task) => `(${[sql.bindAs(task.id, 'varchar'), ...RESULT_COLUMNS.map(([, type, value]) => sql.bindAs(value(task), type))].join(', ')})`);
    const assignments = RESULT_COLUMNS.map(([column], i) => `"${column}" = v.column${i + 2}`).join(', ');
    await tx.query(`UPDATE tasks SET ${assignments} FROM (VALUES ${rows.join(', ')}) AS v WHERE tasks.id = v.column1`, sql.params);
  }
}
