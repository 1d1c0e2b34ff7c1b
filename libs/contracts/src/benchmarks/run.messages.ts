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

/**
 * prompt-service asks (a release's gate): the completed runs of a benchmark of the caller's
 * project whose target rendered this prompt at this version over every item of the
 * benchmark's dataset at `datasetVersion` (absent: the dataset's version now), newest first.
 * An unknown benchmark (or one of another project) is `not_found`.
 */
export interface RunsOfPromptRequest {
  ctx: ProjectContext;
  benchmarkId: string;
  promptId: string;
  promptVersion: number;
  datasetVersion?: number;
}

/** Which items a run covered: `items` of the `datasetItems` its dataset held at `datasetVersion`. */
export interface RunCoverage {
  id: string;
  datasetVersion: number;
  items: number;
  datasetItems: number;
}

export interface RunsOfPromptReply {
  /** The benchmark's scorer names, so a gate can be checked against them when it is set. */
  scorers: string[];
  /** The benchmark's dataset as it is now (null: it was deleted): the version a new gate counts. */
  dataset: { id: string; version: number } | null;
  /** The runs that count, at most RUNS_OF_PROMPT_MAX. */
  runs: Array<RunCoverage & { finishedAt: string | null; scores: Record<string, { mean: number | null; passRate: number | null }> }>;
  /** The newest completed run of this prompt version that does not count (a subset, or another dataset version), so a refusal can say why. */
  uncounted: RunCoverage | null;
}
