import { DomainError, FieldError, RowSubsetInput } from '@cinetrace/contracts';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { DatasetItem } from './dataset-item.entity';
import type { Dataset } from './dataset.entity';

/** What a run needs to know of an item to take it (its content is copied in the database). */
export type SelectedItem = Pick<DatasetItem, 'id' | 'index'>;

/**
 * The dataset items a run takes, in dataset order: all of them, a window (`offset`,
 * `limit`) or those named by id, each of which must be an item of the dataset.
 */
export async function selectItems(tx: EntityManager, dataset: Dataset, subset: RowSubsetInput | undefined): Promise<SelectedItem[]> {
  const select = { id: true, index: true } as const;
  const base = { datasetId: dataset.id };
  if (subset?.itemIds !== undefined) {
    const wanted = [...new Set(subset.itemIds)];
    const items = await tx.find(DatasetItem, { select, where: { ...base, id: In(wanted) }, order: { index: 'ASC' } });
    const found = new Set(items.map((item) => item.id));
    const errors: FieldError[] = [];
    subset.itemIds.forEach((id, i) => {
      if (!found.has(id)) errors.push({ path: `rowSubset.itemIds[${i}]`, message: `names no item of dataset '${dataset.id}' ('${id}')` });
    });
    if (errors.length) throw DomainError.validation(errors, 'The run is not valid');
    return items;
  }
  const items = await tx.find(DatasetItem, {
    select,
    where: base,
    order: { index: 'ASC' },
    skip: subset?.offset ?? 0,
    ...(subset?.limit !== undefined ? { take: subset.limit } : {}),
  });
  if (items.length === 0) {
    const path = dataset.itemCount === 0 ? 'datasetId' : 'rowSubset';
    const message = dataset.itemCount === 0 ? `dataset '${dataset.id}' has no items` : `selects none of the dataset's ${dataset.itemCount} items`;
    throw DomainError.validation([{ path, message }], 'The run is not valid');
  }
  return items;
}
