import { newId } from '@cinetrace/ids';
import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import type { Run } from './run.entity';

/** Tasks per statement: three parameters each, well within both dialects' limits. */
const TASKS_PER_STATEMENT = 1000;

/**
 * Creates a run's tasks, one per dataset item (by index), all `pending`. Each item's input,
 * expected output and metadata are copied inside the database, as stored: a run of 10,000
 * items costs ten statements and no item crosses the wire.
 */
export async function insertRunTasks(tx: EntityManager, run: Run, itemIndexes: number[]): Promise<void> {
  for (let start = 0; start < itemIndexes.length; start += TASKS_PER_STATEMENT) {
    const sql = new SqlBuilder(dialectOf(tx));
    // In the order they appear in the statement.
    const runId = sql.bindAs(run.id, 'varchar');
    const projectId = sql.bindAs(run.projectId, 'varchar');
    const rows = itemIndexes
      .slice(start, start + TASKS_PER_STATEMENT)
      .map((index) => `(${sql.bindAs(newId('task'), 'varchar')}, ${sql.bindAs(newId('tr'), 'varchar')}, ${sql.bindAs(index, 'integer')})`);
    const datasetId = sql.bindAs(run.datasetId, 'varchar');
    await tx.query(
      `INSERT INTO tasks (id, run_id, project_id, item_id, item_index, status, attempts, input, expected, metadata, scores, trace_id)
       SELECT v.column1, ${runId}, ${projectId}, items.id, items.idx, 'pending', 0, items.input, items.expected, items.metadata, '[]', v.column2
       FROM (VALUES ${rows.join(', ')}) AS v JOIN dataset_items items ON items.dataset_id = ${datasetId} AND items.idx = v.column3`,
      sql.params,
    );
  }
}
