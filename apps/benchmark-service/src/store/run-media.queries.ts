import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { RunMedia } from './run-media.entity';

/** Rows per statement: two parameters each, well within both dialects' limits. */
const ROWS_PER_STATEMENT = 1000;

/** Records that the run's outputs name these media; a media recorded already (another task, an event read twice) is left as it is. */
export async function recordRunMedia(tx: EntityManager, runId: string, mediaIds: readonly string[]): Promise<void> {
  for (let start = 0; start < mediaIds.length; start += ROWS_PER_STATEMENT) {
    const sql = new SqlBuilder(dialectOf(tx));
    const rows = mediaIds.slice(start, start + ROWS_PER_STATEMENT).map((mediaId) => `(${sql.bind(runId)}, ${sql.bind(mediaId)})`);
    await tx.query(`INSERT INTO run_media (run_id, media_id) VALUES ${rows.join(', ')} ON CONFLICT DO NOTHING`, sql.params);
  }
}

/** The first `rows` media the run's outputs name, by id (down the primary key; plain SQL: hydrating 10,000 entities cost TypeORM 200-400 ms). */
export async function mediaOfRun(manager: EntityManager, runId: string, rows: number): Promise<string[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const found: Array<{ media_id: string }> = await manager.query(
    `SELECT media_id FROM run_media WHERE run_id = ${sql.bind(runId)} ORDER BY media_id LIMIT ${sql.bind(rows)}`,
    sql.params,
  );
  return found.map((row) => row.media_id);
}

/** How many media the run's outputs name. */
export const countMediaOfRun = (manager: EntityManager, runId: string): Promise<number> => manager.countBy(RunMedia, { runId });
