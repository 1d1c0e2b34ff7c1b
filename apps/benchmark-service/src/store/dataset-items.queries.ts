import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { In, MoreThan } from 'typeorm';
import { DatasetItem } from './dataset-item.entity';

/** SQLite binds at most 32766 parameters per statement; an item row takes 8. */
const ITEMS_PER_INSERT = 500;

/** What a run needs to know of an item to take it (its content is copied in the database). */
export type ItemRef = Pick<DatasetItem, 'id' | 'index'>;

const ITEM_REF = { id: true, index: true } as const;

export async function insertDatasetItems(tx: EntityManager, items: DatasetItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += ITEMS_PER_INSERT) await insertRows(tx, DatasetItem, items.slice(i, i + ITEMS_PER_INSERT));
}

/** In dataset order, `rows` of them from after the index `after`. */
export function listDatasetItems(manager: EntityManager, datasetId: string, after: number | undefined, rows: number): Promise<DatasetItem[]> {
  return manager.find(DatasetItem, {
    where: { datasetId, ...(after !== undefined ? { index: MoreThan(after) } : {}) },
    order: { index: 'ASC' },
    take: rows,
  });
}

/** The items of the dataset among `ids`, in dataset order. */
export const findItemRefsById = (tx: EntityManager, datasetId: string, ids: string[]): Promise<ItemRef[]> =>
  tx.find(DatasetItem, { select: ITEM_REF, where: { datasetId, id: In(ids) }, order: { index: 'ASC' } });

/** The items of the dataset from `offset`, `limit` of them (all when undefined), in dataset order. */
export const findItemRefsInWindow = (tx: EntityManager, datasetId: string, offset: number, limit: number | undefined): Promise<ItemRef[]> =>
  tx.find(DatasetItem, { select: ITEM_REF, where: { datasetId }, order: { index: 'ASC' }, skip: offset, ...(limit !== undefined ? { take: limit } : {}) });

export async function deleteDatasetItems(tx: EntityManager, datasetId: string): Promise<void> {
  await tx.delete(DatasetItem, { datasetId });
}
