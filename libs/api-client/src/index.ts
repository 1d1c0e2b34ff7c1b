import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

// One module on purpose: jest (which runs the sources) cannot resolve a relative `.js`
// import to its `.ts` file, and the only other import here is type-only.
export type { components, operations, paths } from './schema.js';

export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** Where the API is: `http://localhost:3000`, or '' for the page's own origin in a browser. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; omitted when empty. */
  apiKey?: string;
  /** Sent as `X-Project-Key`: every route outside the organization's (projects, api-keys, secrets) needs it. */
  projectKey?: string;
  /** Another fetch (a test's, or one with a proxy); the global one otherwise. */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * An openapi-fetch client typed by the generated `paths`: every path, parameter, body and
 * answer (the problem on errors) as the served OpenAPI document describes it.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const headers: Record<string, string> = {};
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
  if (options.projectKey) headers['X-Project-Key'] = options.projectKey;
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    // List filters that are arrays (tags) travel as a comma list (`tags=a,b`), as the document says (style form, explode false).
    querySerializer: { array: { style: 'form', explode: false } },
    // The API authenticates by key alone: no cookie is ever needed.
    credentials: 'omit',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
