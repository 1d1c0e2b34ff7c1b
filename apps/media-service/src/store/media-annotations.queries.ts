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
