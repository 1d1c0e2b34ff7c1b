// Every call the console makes to the public API, in one module: a client generated from
// the OpenAPI document can replace these functions without touching the pages.
import type { ApiKey, Benchmark, CreatedApiKey, Dataset, DatasetItem, KeyScope, Page, Problem, Project, Prompt, PromptActivity, PromptVersion, Run, Secret, TaskPage, Trace, TraceSummary } from './api-types';
import { apiKey, chosenProject } from './session';

const BASE = '/api/v1';

/** A non-2xx answer, with the API's problem details. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
  }
  get status(): number {
    return this.problem.status;
  }
}

interface RequestOptions {
  query?: URLSearchParams;
  /** Send the chosen project's key (every route outside /projects needs it). */
  project?: boolean;
  /** Use this key instead of the signed-in one (signing in checks a key before keeping it). */
  key?: string;
  signal?: AbortSignal;
}

async function get<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return call<T>('GET', path, options);
}

async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: RequestOptions & { json?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  const key = options.key ?? apiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.project) {
    const project = chosenProject();
    if (project) headers['X-Project-Key'] = project.key;
  }
  const query = options.query?.toString();
  const response = await fetch(`${BASE}${path}${query ? `?${query}` : ''}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    signal: options.signal,
    credentials: 'omit',
  });
  // 204 (a deleted key or secret) has no body.
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new ApiError({ status: response.status, ...(body && typeof body === 'object' ? body : {}) });
  return body as T;
}

function pageQuery(cursor: string | null | undefined, limit: number, base = new URLSearchParams()): URLSearchParams {
  const query = new URLSearchParams(base);
  query.set('limit', String(limit));
  if (cursor) query.set('cursor', cursor);
  return query;
}

export function listProjects(options: { cursor?: string | null; limit?: number; key?: string } = {}): Promise<Page<Project>> {
  return get('/projects', { query: pageQuery(options.cursor, options.limit ?? 100), key: options.key });
}

export function createProject(body: { name: string; description?: string; key?: string }): Promise<Project> {
  return call('POST', '/projects', { json: body });
}

export function listTraces(filters: URLSearchParams, cursor: string | null, limit: number, signal?: AbortSignal): Promise<Page<TraceSummary>> {
  return get('/traces', { query: pageQuery(cursor, limit, filters), project: true, signal });
}

export function getTrace(id: string, signal?: AbortSignal): Promise<Trace> {
  return get(`/traces/${encodeURIComponent(id)}`, { project: true, signal });
}

export function listBenchmarks(cursor: string | null, limit: number): Promise<Page<Benchmark>> {
  return get('/benchmarks', { query: pageQuery(cursor, limit), project: true });
}

export function getBenchmark(id: string): Promise<Benchmark> {
  return get(`/benchmarks/${encodeURIComponent(id)}`, { project: true });
}

/** Starts a run of every item; the answer is the queued run (202). */
export function startRun(benchmarkId: string): Promise<{ id: string; status: 'queued'; taskCount: number }> {
  return call('POST', `/benchmarks/${encodeURIComponent(benchmarkId)}/start`, { json: {}, project: true });
}

export function listRuns(benchmarkId: string, cursor: string | null, limit: number): Promise<Page<Run>> {
  return get(`/benchmarks/${encodeURIComponent(benchmarkId)}/runs`, { query: pageQuery(cursor, limit), project: true });
}

export function listTasks(benchmarkId: string, runId: string, cursor: string | null, limit: number): Promise<TaskPage> {
  const query = pageQuery(cursor, limit, new URLSearchParams({ runId }));
  return get(`/benchmarks/${encodeURIComponent(benchmarkId)}/tasks`, { query, project: true });
}

export function listPrompts(filters: { type?: string; label?: string; q?: string; includeDeleted?: boolean }, cursor: string | null, limit: number): Promise<Page<Prompt>> {
  const base = new URLSearchParams();
  if (filters.type) base.set('type', filters.type);
  if (filters.label) base.set('label', filters.label);
  if (filters.q) base.set('q', filters.q);
  if (filters.includeDeleted) base.set('includeDeleted', 'true');
  return get('/prompts', { query: pageQuery(cursor, limit, base), project: true });
}

export function getPrompt(id: string, includeDeleted = false): Promise<Prompt> {
  return get(`/prompts/${encodeURIComponent(id)}`, { query: includeDeleted ? new URLSearchParams({ includeDeleted: 'true' }) : undefined, project: true });
}

export function listPromptVersions(id: string, cursor: string | null, limit: number): Promise<Page<PromptVersion>> {
  return get(`/prompts/${encodeURIComponent(id)}/versions`, { query: pageQuery(cursor, limit), project: true });
}

export function listPromptActivity(id: string, cursor: string | null, limit: number): Promise<Page<PromptActivity>> {
  return get(`/prompts/${encodeURIComponent(id)}/activity`, { query: pageQuery(cursor, limit), project: true });
}

export function listDatasets(cursor: string | null, limit: number): Promise<Page<Dataset>> {
  return get('/datasets', { query: pageQuery(cursor, limit), project: true });
}

export function getDataset(id: string): Promise<Dataset> {
  return get(`/datasets/${encodeURIComponent(id)}`, { project: true });
}

export function listDatasetItems(id: string, cursor: string | null, limit: number): Promise<Page<DatasetItem>> {
  return get(`/datasets/${encodeURIComponent(id)}/items`, { query: pageQuery(cursor, limit), project: true });
}

export function listApiKeys(cursor: string | null, limit: number): Promise<Page<ApiKey>> {
  return get('/api-keys', { query: pageQuery(cursor, limit) });
}

export function createApiKey(body: { name: string; scopes: KeyScope[]; projectIds?: string[] }): Promise<CreatedApiKey> {
  return call('POST', '/api-keys', { json: body });
}

export function revokeApiKey(id: string): Promise<null> {
  return call('DELETE', `/api-keys/${encodeURIComponent(id)}`);
}

export function listSecrets(cursor: string | null, limit: number): Promise<Page<Secret>> {
  return get('/secrets', { query: pageQuery(cursor, limit) });
}

export function createSecret(body: { name: string; value: string; allowedHosts?: string[] }): Promise<Secret> {
  return call('POST', '/secrets', { json: body });
}

export function rotateSecret(id: string, body: { value: string; allowedHosts?: string[] }): Promise<Secret> {
  return call('PUT', `/secrets/${encodeURIComponent(id)}`, { json: body });
}

export function deleteSecret(id: string): Promise<null> {
  return call('DELETE', `/secrets/${encodeURIComponent(id)}`);
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
