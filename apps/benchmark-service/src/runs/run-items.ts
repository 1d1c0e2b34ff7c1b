import { DomainError, FieldError, RowSubsetInput } from '@cinetrace/contracts';
import type { EntityManager } from 'typeorm';
import type { Dataset } from '../store/dataset.entity';
import { findItemRefsById, findItemRefsInWindow, ItemRef } from '../store/dataset-items.queries';

/**
 * The dataset items a run takes, in dataset order: all of them, a window (`offset`,
 * `limit`) or those named by id, each of which must be an item of the dataset.
 */
export async function selectItems(tx: EntityManager, dataset: Dataset, subset: RowSubsetInput | undefined): Promise<ItemRef[]> {
  if (subset?.itemIds !== undefined) {
    const items = await findItemRefsById(tx, dataset.id, [...new Set(subset.itemIds)]);
    const found = new Set(items.map((item) => item.id));
    const errors: FieldError[] = [];
    subset.itemIds.forEach((id, i) => {
      if (!found.has(id)) errors.push({ path: `rowSubset.itemIds[${i}]`, message: `names no item of dataset '${dataset.id}' ('${id}')` });
    });
    if (errors.length) throw DomainError.validation(errors, 'The run is not valid');
    return items;
  }
  const items = await findItemRefsInWindow(tx, dataset.id, subset?.offset ?? 0, subset?.limit);
  if (items.length === 0) {
    const path = dataset.itemCount === 0 ? 'datasetId' : 'rowSubset';
    const message = dataset.itemCount === 0 ? `dataset '${dataset.id}' has no items` : `selects none of the dataset's ${dataset.itemCount} items`;
    throw DomainError.validation([{ path, message }], 'The run is not valid');
  }
  return items;
}
