import type { DatasetItemView, DatasetView } from '@cinetrace/contracts';
import { toIso } from '@cinetrace/persistence';
import type { DatasetItem } from '../store/dataset-item.entity';
import type { Dataset } from '../store/dataset.entity';

export function toDatasetView(d: Dataset): DatasetView {
  return {
    id: d.id,
    projectId: d.projectId,
    name: d.name,
    description: d.description,
    itemCount: d.itemCount,
    version: d.version,
    createdAt: toIso(d.createdAt),
    updatedAt: toIso(d.updatedAt),
  };
}

export function toItemView(i: DatasetItem): DatasetItemView {
  return {
    id: i.id,
    datasetId: i.datasetId,
    index: i.index,
    input: i.input,
    expected: i.expected === undefined ? null : i.expected,
    metadata: i.metadata,
    createdAt: toIso(i.createdAt),
  };
}
