import { dialectOf, insertRows, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { MoreThan } from 'typeorm';
import { MediaAnnotation } from './media-annotation.entity';

export const insertMediaAnnotation = (tx: EntityManager, annotation: MediaAnnotation): Promise<void> => insertRows(tx, MediaAnnotation, annotation);

/** A media's annotations by `(startMs, id)`, `rows` of them from after the key `after`. */
export function listMediaAnnotations(manager: EntityManager, projectId: string, mediaId: string, after: [number, string] | undefined, rows: number): Promise<MediaAnnotation[]> {
  const ofMedia = { projectId, mediaId };
  return manager.find(MediaAnnotation, {
    // After [startMs, id]: a later start, or the same start and a later id.
    where:
      after === undefined
        ? ofMedia
        : [
            { ...ofMedia, startMs: MoreThan(after[0]) },
            { ...ofMedia, startMs: after[0], id: MoreThan(after[1]) },
          ],
    order: { startMs: 'ASC', id: 'ASC' },
    take: rows,
  });
}

/**
 * How many annotations of the project's media among `mediaIds` carry each label, down the
 * `(project_id, media_id, label)` index; ids of other projects' media, or of none, match
 * nothing. The ids go as one parameter, an array (PostgreSQL) or its JSON text (SQLite's
 * json_each): one statement whatever their number, where 10,000 placeholders cost ten
 * statements and TypeORM's expansion of each list more than the query. (`= ANY` of 10,000
 * constants would cost PostgreSQL's planner a selectivity estimate each: joined instead.)
 */
export async function countLabelsOfMedia(manager: EntityManager, projectId: string, mediaIds: readonly string[]): Promise<Array<{ label: string; count: number }>> {
  const sql = new SqlBuilder(dialectOf(manager));
  const statement =
    sql.dialect === 'postgres'
      ? `SELECT a.label, COUNT(*) AS count FROM unnest(${sql.bind(mediaIds)}::varchar[]) AS m(id)
         JOIN media_annotations a ON a.project_id = ${sql.bind(projectId)} AND a.media_id = m.id GROUP BY a.label`
      : `SELECT label, COUNT(*) AS count FROM media_annotations
         WHERE project_id = ${sql.bind(projectId)} AND media_id IN (SELECT value FROM json_each(${sql.bind(JSON.stringify(mediaIds))})) GROUP BY label`;
  const rows: Array<{ label: string; count: string | number }> = await manager.query(statement, sql.params);
  // PostgreSQL answers COUNT(*) as a bigint, in text.
  return rows.map((row) => ({ label: row.label, count: Number(row.count) }));
}
