import { insertRows } from '@cinetrace/persistence';
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

/** Media ids per counting statement: well within SQLite's and PostgreSQL's parameter limits. */
const MEDIA_PER_STATEMENT = 1000;

/**
 * How many annotations of the project's media among `mediaIds` carry each label, down the
 * `(project_id, media_id, label)` index; ids of other projects' media, or of none, match nothing.
 */
export async function countLabelsOfMedia(manager: EntityManager, projectId: string, mediaIds: readonly string[]): Promise<Array<{ label: string; count: number }>> {
  const counts: Array<{ label: string; count: number }> = [];
  for (let start = 0; start < mediaIds.length; start += MEDIA_PER_STATEMENT) {
    const rows: Array<{ label: string; count: string | number }> = await manager
      .createQueryBuilder(MediaAnnotation, 'a')
      .select('a.label', 'label')
      .addSelect('COUNT(*)', 'count')
      .where('a.project_id = :projectId AND a.media_id IN (:...ids)', { projectId, ids: mediaIds.slice(start, start + MEDIA_PER_STATEMENT) })
      .groupBy('a.label')
      .getRawMany();
    // PostgreSQL answers COUNT(*) as a bigint, in text.
    counts.push(...rows.map((row) => ({ label: row.label, count: Number(row.count) })));
  }
  return counts;
}
