import type { AddDatasetItemsInput, CreateDatasetInput, DatasetItemsAddedView, DatasetItemView, DatasetView, DeletedView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const dataset = {
  id: EXAMPLE.datasetId,
  projectId: EXAMPLE.projectId,
  name: 'Camera moves v1',
  description: '',
  itemCount: 1,
  version: 1,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} satisfies DatasetView;

const item = {
  id: EXAMPLE.datasetItemId,
  datasetId: EXAMPLE.datasetId,
  index: 0,
  input: { prompt: 'a fox at dawn' },
  expected: 'fox',
  metadata: {},
  createdAt: EXAMPLE.createdAt,
} satisfies DatasetItemView;

export const DATASET_EXAMPLES: ExampleTable = {
  createDataset: {
    request: { name: 'Camera moves v1', items: [{ input: { prompt: 'a fox at dawn' }, expected: 'fox' }] } satisfies CreateDatasetInput,
    response: dataset,
  },
  listDatasets: { response: listPage([dataset]) },
  getDataset: { response: dataset },
  deleteDataset: { response: { id: EXAMPLE.datasetId, deleted: true } satisfies DeletedView },
  addDatasetItems: {
    request: { items: [{ input: { prompt: 'a heron at dusk' }, expected: 'heron' }] } satisfies AddDatasetItemsInput,
    response: { added: 1, itemCount: 2, version: 2 } satisfies DatasetItemsAddedView,
  },
  listDatasetItems: { response: listPage([item], EXAMPLE.cursor) },
};
