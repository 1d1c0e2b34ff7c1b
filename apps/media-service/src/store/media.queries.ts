import type { MediaListFilters, MediaProbeView } from '@cinetrace/contracts';
import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { In, LessThan } from 'typeorm';
import type { StoredStoryboard } from '../storyboard/stored-storyboard';
import { Media } from './media.entity';

export const insertMedia = (tx: EntityManager, media: Media): Promise<void> => insertRows(tx, Media, media);

export const findMedia = (manager: EntityManager, projectId: string, id: string): Promise<Media | null> => manager.findOneBy(Media, { id, projectId });

/** The probe worker's read: by id alone, as the job names only the media. */
export const findMediaById = (manager: EntityManager, id: string): Promise<Media | null> => manager.findOneBy(Media, { id });

export const findMediaBySha256 = (manager: EntityManager, projectId: string, sha256: string): Promise<Media | null> => manager.findOneBy(Media, { projectId, sha256 });

/** Newest first, `rows` of them from after the key `after`. */
export function listMedia(manager: EntityManager, projectId: string, filters: MediaListFilters, after: string | undefined, rows: number): Promise<Media[]> {
  return manager.find(Media, {
    where: {
      projectId,
      ...(filters.contentType !== undefined ? { contentType: filters.contentType } : {}),
      ...(filters.status !== undefined ? { status: filters.status } : {}),
      ...(after !== undefined ? { id: LessThan(after) } : {}),
    },
    order: { id: 'DESC' },
    take: rows,
  });
}

/** Media still waiting for their probe (id and project), oldest first (what a restart hands the probe queue again). */
export async function listPendingMedia(manager: EntityManager, rows: number): Promise<{ id: string; projectId: string }[]> {
  const pending = await manager.find(Media, { select: { id: true, projectId: true }, where: { status: 'pending' }, order: { id: 'ASC' }, take: rows });
  return pending.map(({ id, projectId }) => ({ id, projectId }));
}

/** Records the probe's outcome on a media still pending; false when it was settled already (a job run twice). */
export async function settleMedia(tx: EntityManager, id: string, outcome: { status: 'ready'; probe: MediaProbeView } | { status: 'failed'; error: string }): Promise<boolean> {
  const result = await tx.update(
    Media,
    { id, status: 'pending' },
    outcome.status === 'ready' ? { status: 'ready', probe: outcome.probe as object, error: null } : { status: 'failed', probe: null, error: outcome.error },
  );
  return Boolean(result.affected);
}

/** Records a media's storyboard (the storyboard job's outcome). */
export async function saveStoryboard(manager: EntityManager, id: string, storyboard: StoredStoryboard): Promise<void> {
  await manager.update(Media, { id }, { storyboard: storyboard as object });
}

/** The media of these ids, whatever their project (the copies naming them are the caller's, read by id). */
export const findMediaByIds = (manager: EntityManager, ids: string[]): Promise<Media[]> => (ids.length ? manager.findBy(Media, { id: In(ids) }) : Promise.resolve([]));
