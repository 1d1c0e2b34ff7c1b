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
