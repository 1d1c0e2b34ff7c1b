// Every call the console makes to the public API, in one module, on the client generated
// from the OpenAPI document (@cinetrace/api-client): paths, parameters, bodies and answers
// are typed by the generated `paths`, so a change to the API fails the console's build.
import { createApiClient, type ApiClient } from '@cinetrace/api-client';
import type { CreatedApiKey, NewAnnotation, NewApiKey, NewProject, NewSecret, Page, Problem, Project, PromptFilters, RotatedSecret, Secret, TraceQuery } from './api-types';
import { READ_ASKS, retryingFetch } from './retrying-fetch';
import { apiKey, chosenProject } from './session';

/**
 * The problem of a non-2xx answer. Only `status` is sure: a proxy in front of the API can
 * answer without a problem body.
 */
export type ApiProblem = Partial<Omit<Problem, 'status'>> & { status: number };

/** A non-2xx answer, with the API's problem details. */
export class ApiError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
  }
  get status(): number {
    return this.problem.status;
  }
}

interface Scope {
  /** Send the chosen project's key (every route outside the organization's needs it). */
  project?: boolean;
  /** Use this key instead of the signed-in one (signing in checks a key before keeping it). */
  key?: string;
  /** How many times a read is asked in all while the API answers 503 or 429 (with Retry-After). */
  asks?: number;
}

/** A client with the current session's key (and project): both can change between calls. */
function client(scope: Scope = {}): ApiClient {
  const key = scope.key ?? apiKey() ?? undefined;
  const projectKey = scope.project ? chosenProject()?.key : undefined;
  // '': the API is on the console's own origin. The page's fetch is looked up per call (tests replace it).
  const fetchOnce = (request: Request) => globalThis.fetch(request);
  return createApiClient({ baseUrl: '', apiKey: key, projectKey, fetch: retryingFetch(fetchOnce, scope.asks ?? READ_ASKS) });
}

/** The answer's data, or an ApiError with the problem the API answered. */
async function answer<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw new ApiError({ status: response.status, ...(error && typeof error === 'object' ? error : {}) });
  return data as T;
}

/** The paging parameters of a list (a null cursor: the first page). */
function page(cursor: string | null | undefined, limit: number): { limit: number; cursor?: string } {
  return cursor ? { limit, cursor } : { limit };
}

export function listProjects(options: { cursor?: string | null; limit?: number; key?: string } = {}): Promise<Page<Project>> {
  return answer(client({ key: options.key }).GET('/api/v1/projects', { params: { query: page(options.cursor, options.limit ?? 100) } }));
}

export function createProject(body: NewProject): Promise<Project> {
  return answer(client().POST('/api/v1/projects', { body }));
}

export function listTraces(filters: TraceQuery, cursor: string | null, limit: number, signal?: AbortSignal) {
  return answer(client({ project: true }).GET('/api/v1/traces', { params: { query: { ...filters, ...page(cursor, limit) } }, signal }));
}

export function getTrace(id: string, signal?: AbortSignal) {
  return answer(client({ project: true }).GET('/api/v1/traces/{id}', { params: { path: { id } }, signal }));
}

export function listBenchmarks(cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/benchmarks', { params: { query: page(cursor, limit) } }));
}

export function getBenchmark(id: string) {
  return answer(client({ project: true }).GET('/api/v1/benchmarks/{id}', { params: { path: { id } } }));
}

/** Starts a run of every item; the answer is the queued run (202). */
export function startRun(benchmarkId: string) {
  return answer(client({ project: true }).POST('/api/v1/benchmarks/{id}/start', { params: { path: { id: benchmarkId } }, body: {} }));
}

export function listRuns(benchmarkId: string, cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/benchmarks/{id}/runs', { params: { path: { id: benchmarkId }, query: page(cursor, limit) } }));
}

export function listTasks(benchmarkId: string, runId: string, cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/benchmarks/{id}/tasks', { params: { path: { id: benchmarkId }, query: { runId, ...page(cursor, limit) } } }));
}

export function listPrompts(filters: PromptFilters, cursor: string | null, limit: number) {
  // Empty filters are left out, not sent empty; includeDeleted only when asked for.
  const query = {
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.label ? { label: filters.label } : {}),
    ...(filters.q ? { q: filters.q } : {}),
    ...(filters.includeDeleted ? { includeDeleted: true } : {}),
    ...page(cursor, limit),
  };
  return answer(client({ project: true }).GET('/api/v1/prompts', { params: { query } }));
}

export function getPrompt(id: string, includeDeleted = false) {
  const query = includeDeleted ? { includeDeleted: true } : undefined;
  return answer(client({ project: true }).GET('/api/v1/prompts/{id}', { params: { path: { id }, query } }));
}

export function listPromptVersions(id: string, cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/prompts/{id}/versions', { params: { path: { id }, query: page(cursor, limit) } }));
}

export function listPromptActivity(id: string, cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/prompts/{id}/activity', { params: { path: { id }, query: page(cursor, limit) } }));
}

export function listDatasets(cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/datasets', { params: { query: page(cursor, limit) } }));
}

export function getDataset(id: string) {
  return answer(client({ project: true }).GET('/api/v1/datasets/{id}', { params: { path: { id } } }));
}

export function listDatasetItems(id: string, cursor: string | null, limit: number) {
  return answer(client({ project: true }).GET('/api/v1/datasets/{id}/items', { params: { path: { id }, query: page(cursor, limit) } }));
}

export function listApiKeys(cursor: string | null, limit: number) {
  return answer(client().GET('/api/v1/api-keys', { params: { query: page(cursor, limit) } }));
}

export function createApiKey(body: NewApiKey): Promise<CreatedApiKey> {
  return answer(client().POST('/api/v1/api-keys', { body }));
}

/** 204: nothing to answer. */
export async function revokeApiKey(id: string): Promise<void> {
  await answer(client().DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } }));
}

export function listSecrets(cursor: string | null, limit: number) {
  return answer(client().GET('/api/v1/secrets', { params: { query: page(cursor, limit) } }));
}

export function createSecret(body: NewSecret): Promise<Secret> {
  return answer(client().POST('/api/v1/secrets', { body }));
}

export function rotateSecret(id: string, body: RotatedSecret): Promise<Secret> {
  return answer(client().PUT('/api/v1/secrets/{id}', { params: { path: { id } }, body }));
}

/** 204: nothing to answer. */
export async function deleteSecret(id: string): Promise<void> {
  await answer(client().DELETE('/api/v1/secrets/{id}', { params: { path: { id } } }));
}

export function getMedia(id: string, signal?: AbortSignal) {
  return answer(client({ project: true }).GET('/api/v1/media/{id}', { params: { path: { id } }, signal }));
}

/** How often the storyboard is asked for while the service computes it (503 with Retry-After). */
const STORYBOARD_ASKS = 12;

/** A media's keyframes; while the service computes them (503), asked again after its Retry-After. */
export function getStoryboard(id: string, signal?: AbortSignal) {
  return answer(client({ project: true, asks: STORYBOARD_ASKS }).GET('/api/v1/media/{id}/storyboard', { params: { path: { id } }, signal }));
}

/**
 * A media's bytes (`/content`), or one frame of it (`/frames?atMs=`), as a Blob: a `<video>` or
 * `<img>` cannot send the project's key, so the console fetches them itself and plays an
 * object URL. A frame still rendering (503) is asked for again after its Retry-After, as every read is.
 */
export function getMediaContent(id: string, signal?: AbortSignal): Promise<Blob> {
  return answer(client({ project: true }).GET('/api/v1/media/{id}/content', { params: { path: { id } }, parseAs: 'blob', signal })) as Promise<Blob>;
}

export function getMediaFrame(id: string, atMs: number, signal?: AbortSignal): Promise<Blob> {
  return answer(client({ project: true }).GET('/api/v1/media/{id}/frames', { params: { path: { id }, query: { atMs } }, parseAs: 'blob', signal })) as Promise<Blob>;
}

export function listAnnotations(id: string, cursor: string | null, limit: number, signal?: AbortSignal) {
  return answer(client({ project: true }).GET('/api/v1/media/{id}/annotations', { params: { path: { id }, query: page(cursor, limit) }, signal }));
}

export function createAnnotation(id: string, body: NewAnnotation) {
  return answer(client({ project: true }).POST('/api/v1/media/{id}/annotations', { params: { path: { id } }, body }));
}

/** Every item of a list, page by page, up to `max` (a run's tasks, to compare two runs). */
export async function everyItem<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>, max = 10_000): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await fetchPage(cursor);
    items.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor && items.length < max);
  return items;
}
