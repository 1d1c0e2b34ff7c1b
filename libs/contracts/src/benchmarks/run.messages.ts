import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { StartRunInput } from './run.inputs';

export interface RunStartRequest {
  ctx: ProjectContext;
  benchmarkId: string;
  input: StartRunInput;
}

/** Runs page by id, newest first. */
export type RunListKey = string;

export interface RunListRequest {
  ctx: ProjectContext;
  benchmarkId: string;
  page: PageRequest<RunListKey>;
}

export interface TaskListFilters {
  runId?: string;
  status?: string;
}

/** Tasks page by item position within their run. */
export type TaskListKey = number;

export interface TaskListRequest {
  ctx: ProjectContext;
  benchmarkId: string;
  filters: TaskListFilters;
  page: PageRequest<TaskListKey>;
}

/** The newest runs this many are enough to judge a gate by (a version is rarely evaluated more often). */
export const RUNS_OF_PROMPT_MAX = 20;

/** Which items a run covered: `items` of the `datasetItems` its dataset held at `datasetVersion`. */
export interface RunCoverage {
  id: string;
  datasetVersion: number;
  items: number;
  datasetItems: number;
}
