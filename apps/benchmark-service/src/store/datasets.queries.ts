import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { LessThan } from 'typeorm';
import { Dataset } from './dataset.entity';
import { forUpdate } from './row-locks';

export const insertDataset = (tx: EntityManager, dataset: Dataset): Promise<void> => insertRows(tx, Dataset, dataset);

export const findDataset = (manager: EntityManager, projectId: string, id: string): Promise<Dataset | null> => manager.findOneBy(Dataset, { id, projectId });

/**
 * Reads a dataset of the project and, on PostgreSQL, locks its row until the transaction
 * ends, so "create a benchmark on it" and "delete it" cannot both pass their checks.
 */
export const lockDataset = (tx: EntityManager, projectId: string, id: string): Promise<Dataset | null> => tx.findOne(Dataset, { where: { id, projectId }, ...forUpdate(tx) });

/** Newest first, `rows` of them from after the key `after`. */
export function listDatasets(manager: EntityManager, projectId: string, filters: { name?: string }, after: string | undefined, rows: number): Promise<Dataset[]> {
  return manager.find(Dataset, {
    where: { projectId, ...(filters.name !== undefined ? { name: filters.name } : {}), ...(after !== undefined ? { id: LessThan(after) } : {}) },
    order: { id: 'DESC' },
    take: rows,
  });
}

/** Moves the dataset to its next version if it is still at `from` (compare-and-set); false when another writer moved it first. */
export async function advanceDatasetVersion(tx: EntityManager, id: string, from: number, next: Pick<Dataset, 'version' | 'itemCount' | 'updatedAt'>): Promise<boolean> {
  const result = await tx.update(Dataset, { id, version: from }, next);
  return Boolean(result.affected);
}

export async function deleteDataset(tx: EntityManager, projectId: string, id: string): Promise<void> {
  await tx.delete(Dataset, { id, projectId });
}
