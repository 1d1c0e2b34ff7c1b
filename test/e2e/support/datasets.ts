import { Api, ApiResponse, Query, unique } from '@cinetrace/testing';
import { expect } from '@jest/globals';
import { ListPage, Schema } from './api-types';
import { ISO_MILLIS_UTC } from './expectations';
import { pageThrough } from './lists';

export const DATASETS = '/api/v1/datasets';

/** A JSON object as the tests build them (what the API answers is read through ./api-types). */
export type Json = Record<string, unknown>;

export type DatasetView = Schema<'DatasetView'>;
export type DatasetItemView = Schema<'DatasetItemView'>;

/** /api/v1/datasets/{id} */
export const datasetPath = (id: string): string => `${DATASETS}/${encodeURIComponent(id)}`;

/** /api/v1/datasets/{id}/items */
export const itemsPath = (id: string): string => `${datasetPath(id)}/items`;

/** A valid item whose input names `tag` (so it can be told apart); fields can be overridden or added. */
export function anItem(tag: string | number = unique('item'), overrides: Json = {}): Json {
  return { input: { prompt: `a fox at dawn #${tag}` }, expected: { label: `fox-${tag}` }, ...overrides };
}

/** `count` valid items tagged `<prefix>-0`, `<prefix>-1`, … */
export function someItems(count: number, prefix: string = unique('batch')): Json[] {
  return Array.from({ length: count }, (_, i) => anItem(`${prefix}-${i}`));
}

/** A valid dataset create body with a unique name; fields can be overridden or added. */
export function aDataset(overrides: Json = {}): Json {
  return { name: unique('Camera moves'), description: 'Made by the e2e suite', ...overrides };
}

/** Creates a dataset and fails loudly when that does not answer 201; gives the dataset. */
export async function createDataset(api: Api, overrides: Json = {}): Promise<DatasetView> {
  const response = await api.post<DatasetView>(DATASETS, aDataset(overrides));
  if (response.status !== 201) throw new Error(`dataset create answered ${response.status}: ${response.text}`);
  return response.body;
}

/** POST /api/v1/datasets/{id}/items with `{ items }`. */
export const append = <T = unknown>(api: Api, id: string, items: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> =>
  api.post<T>(itemsPath(id), { items }, { headers });

/** Appends and fails loudly unless it answers 201; gives `{ added, itemCount, version }`. */
export async function appendOk(api: Api, id: string, items: unknown[]): Promise<Schema<'DatasetItemsAddedView'>> {
  const response = await append<Schema<'DatasetItemsAddedView'>>(api, id, items);
  if (response.status !== 201) throw new Error(`append to ${id} answered ${response.status}: ${response.text}`);
  return response.body;
}

/** GET /api/v1/datasets/{id}, failing loudly unless it answers 200. */
export async function readDataset(api: Api, id: string): Promise<DatasetView> {
  const response = await api.get<DatasetView>(datasetPath(id));
  if (response.status !== 200) throw new Error(`GET dataset ${id} answered ${response.status}: ${response.text}`);
  return response.body;
}

/** Every item of the dataset, following nextCursor (oldest first as the API pages them). */
export async function allItems(api: Api, id: string, query: Query = {}): Promise<DatasetItemView[]> {
  return (await pageThrough<DatasetItemView>(api, itemsPath(id), { limit: 200, ...query })).items;
}

/** DELETE /api/v1/datasets/{id}. */
export const deleteDataset = (api: Api, id: string): Promise<ApiResponse> => api.request('DELETE', datasetPath(id));

/** GET /api/v1/datasets with `query`, failing loudly unless it answers 200; gives the ids in order. */
export async function listDatasetIds(api: Api, query: Query = {}): Promise<string[]> {
  const response = await api.get<ListPage<DatasetView>>(DATASETS, query);
  if (response.status !== 200) throw new Error(`GET ${DATASETS} ${JSON.stringify(query)} answered ${response.status}: ${response.text}`);
  return response.body.data.map((d) => d.id);
}

/** An item as the API must show it, from what was sent: `expected` null and `metadata` {} when absent. */
export function expectedItem(sent: Json, datasetId: string, index: number): Json {
  return {
    id: expect.stringMatching(/^dsi_\S+$/),
    datasetId,
    index,
    input: sent.input,
    expected: sent.expected === undefined ? null : sent.expected,
    metadata: sent.metadata ?? {},
    createdAt: expect.stringMatching(ISO_MILLIS_UTC),
  };
}
