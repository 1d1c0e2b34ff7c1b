import type { EntityManager } from 'typeorm';
import { In, Not } from 'typeorm';
import { MediaCopyTarget, type WriteBackStage } from './media-copy-target.entity';

/** Adds the outputs that name a copy; one named again starts its write-back over (the client may have replaced the output since). */
export async function upsertTargets(tx: EntityManager, targets: MediaCopyTarget[]): Promise<void> {
  if (targets.length) await tx.upsert(MediaCopyTarget, targets, { conflictPaths: ['copyId', 'traceId', 'spanId'], skipUpdateIfNoValuesChanged: true });
}

export const findTargetsOfCopies = (manager: EntityManager, copyIds: string[]): Promise<MediaCopyTarget[]> =>
  copyIds.length ? manager.findBy(MediaCopyTarget, { copyId: In(copyIds) }) : Promise.resolve([]);

/** Every copy an output named: its write-back writes them all at once. */
export const findTargetsOfOutput = (manager: EntityManager, projectId: string, traceId: string, spanId: string): Promise<MediaCopyTarget[]> =>
  manager.findBy(MediaCopyTarget, { projectId, traceId, spanId });

/** Outputs whose write-back has not finished, by copy (the sweep's retry). */
export const listUnfinishedTargets = (manager: EntityManager, rows: number): Promise<MediaCopyTarget[]> =>
  manager.find(MediaCopyTarget, { where: { written: Not('done') }, order: { copyId: 'ASC' }, take: rows });

export async function markWritten(tx: EntityManager, projectId: string, traceId: string, spanId: string, copyIds: string[], written: WriteBackStage): Promise<void> {
  if (copyIds.length) await tx.update(MediaCopyTarget, { projectId, traceId, spanId, copyId: In(copyIds) }, { written });
}
