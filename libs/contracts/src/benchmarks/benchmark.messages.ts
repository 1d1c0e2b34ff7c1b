import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { CreateBenchmarkInput } from './benchmark.inputs';

export interface BenchmarkCreateRequest {
  ctx: ProjectContext;
  input: CreateBenchmarkInput;
}

export interface BenchmarkListFilters {
  status?: string;
}

/** Benchmarks page by id, newest first. */
export type BenchmarkListKey = string;

export interface BenchmarkListRequest {
  ctx: ProjectContext;
  filters: BenchmarkListFilters;
  page: PageRequest<BenchmarkListKey>;
}

export interface BenchmarkRequest {
  ctx: ProjectContext;
  id: string;
}
