// Every call the console makes to the public API, in one module: a client generated from
// the OpenAPI document can replace these functions without touching the pages.
import type { Page, Problem, Project, Trace, TraceSummary } from './api-types';
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

async function call<T>(method: 'GET' | 'POST', path: string, options: RequestOptions & { json?: unknown } = {}): Promise<T> {
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
  const body = await response.json().catch(() => null);
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
