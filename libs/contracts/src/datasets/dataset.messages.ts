import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { AddDatasetItemsInput, CreateDatasetInput } from './dataset.inputs';

export interface DatasetCreateRequest {
  ctx: ProjectContext;
  input: CreateDatasetInput;
}

export interface DatasetListFilters {
  name?: string;
}

/** Datasets page by id (newest first); items by index (oldest first). */
export type DatasetListKey = string;
export type DatasetItemKey = number;

export interface DatasetListRequest {
  ctx: ProjectContext;
  filters: DatasetListFilters;
  page: PageRequest<DatasetListKey>;
}

export interface DatasetRequest {
  ctx: ProjectContext;
  id: string;
}

export interface DatasetItemsAddRequest {
  ctx: ProjectContext;
  id: string;
  input: AddDatasetItemsInput;
}

export interface DatasetItemsRequest {
  ctx: ProjectContext;
  id: string;
  page: PageRequest<DatasetItemKey>;
}
