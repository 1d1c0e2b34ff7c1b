import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { MediaCopy } from './media-copy.entity';

export const findCopiesByUrl = (manager: EntityManager, projectId: string, urls: string[]): Promise<MediaCopy[]> =>
  manager.find(MediaCopy, { where: { projectId, url: In(urls) } });

export const findCopy = (manager: EntityManager, id: string): Promise<MediaCopy | null> => manager.findOneBy(MediaCopy, { id });

export const findCopies = (manager: EntityManager, ids: string[]): Promise<MediaCopy[]> => (ids.length ? manager.findBy(MediaCopy, { id: In(ids) }) : Promise.resolve([]));

/** The copies a media holds (its probe settled: their outputs' write-back can finish). */
export const findCopiesOfMedia = (manager: EntityManager, mediaId: string): Promise<MediaCopy[]> => manager.findBy(MediaCopy, { mediaId });

export const insertCopies = (tx: EntityManager, copies: MediaCopy[]): Promise<void> => insertRows(tx, MediaCopy, copies);

/** Copies not fetched yet (id and project), oldest first (what a restart hands the copy queue again). */
export async function listPendingCopies(manager: EntityManager, rows: number): Promise<{ id: string; projectId: string }[]> {
  const pending = await manager.find(MediaCopy, { select: { id: true, projectId: true }, where: { status: 'pending' }, order: { id: 'ASC' }, take: rows });
  return pending.map(({ id, projectId }) => ({ id, projectId }));
}

/** Records a copy's outcome while it is still pending; false when it was settled already (a job run twice). */
export async function settleCopy(tx: EntityManager, id: string, outcome: { status: 'copied'; mediaId: string } | { status: 'failed'; error: string }): Promise<boolean> {
  const result = await tx.update(
    MediaCopy,
    { id, status: 'pending' },
    outcome.status === 'copied' ? { status: 'copied', mediaId: outcome.mediaId, updatedAt: Date.now() } : { status: 'failed', error: outcome.error, updatedAt: Date.now() },
  );
  return Boolean(result.affected);
}
