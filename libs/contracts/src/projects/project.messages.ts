import type { OrgContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { CreateProjectInput } from './create-project.input';

export interface ProjectCreateRequest {
  ctx: OrgContext;
  input: CreateProjectInput;
}

export interface ProjectListFilters {
  name?: string;
}

/** Keyset position of the projects list: the last project's id (ids sort by time). */
export type ProjectListKey = string;

export interface ProjectListRequest {
  ctx: OrgContext;
  filters: ProjectListFilters;
  page: PageRequest<ProjectListKey>;
}

export interface ProjectGetRequest {
  ctx: OrgContext;
  id: string;
}
