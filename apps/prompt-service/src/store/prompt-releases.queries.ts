import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { IsNull, Not } from 'typeorm';
import { PromptRelease } from './prompt-release.entity';

export const findRelease = (manager: EntityManager, promptId: string, name: string): Promise<PromptRelease | null> => manager.findOneBy(PromptRelease, { promptId, name });

/** The prompt's releases by name. */
export const listReleases = (manager: EntityManager, promptId: string): Promise<PromptRelease[]> => manager.find(PromptRelease, { where: { promptId }, order: { name: 'ASC' } });

/** Names of the prompt's releases that carry a gate. */
export async function gatedReleaseNames(manager: EntityManager, promptId: string): Promise<string[]> {
  const releases = await manager.find(PromptRelease, { select: { name: true }, where: { promptId, gate: Not(IsNull()) }, order: { name: 'ASC' } });
  return releases.map((release) => release.name);
}

export const countReleases = (manager: EntityManager, promptId: string): Promise<number> => manager.countBy(PromptRelease, { promptId });

export const insertRelease = (tx: EntityManager, release: PromptRelease): Promise<void> => insertRows(tx, PromptRelease, release);

/** Writes `next` over the release if it is still at `current`'s revision (compare-and-set); false when another move came first. */
export async function replaceRelease(tx: EntityManager, current: PromptRelease, next: PromptRelease): Promise<boolean> {
  const result = await tx.update(
    PromptRelease,
    { promptId: current.promptId, name: current.name, revision: current.revision },
    { version: next.version, gate: next.gate as object | null, revision: next.revision, updatedAt: next.updatedAt, updatedBy: next.updatedBy },
  );
  return Boolean(result.affected);
}

/** Removes the release if it is still at `revision`; false when it changed meanwhile. */
export async function deleteRelease(tx: EntityManager, promptId: string, name: string, revision: number): Promise<boolean> {
  const result = await tx.delete(PromptRelease, { promptId, name, revision });
  return Boolean(result.affected);
}
