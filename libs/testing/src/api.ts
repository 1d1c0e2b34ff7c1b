import { assertConformsToOpenApi } from './openapi-conformance';

/**
 * One HTTP answer, read whole: the body parsed as JSON when it says it is JSON. `unknown`
 * unless the caller names what it expects (`api.get<TraceView>(...)`): the name is the
 * caller's claim, not checked here; the suite checks every answer against the OpenAPI document.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON for `application/json` and `application/problem+json`, else the text. */
  body: T;
  text: string;
  /** The body's bytes as they came (media content). */
  bytes: Buffer;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  /** Serialised as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as is (no serialisation); give `contentType` alongside. */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Follow redirects as a browser would (default: no, the test sees the 3xx). */
  followRedirects?: boolean;
  /** Aborts the request after this long (default 30 s): a hang fails the test, never the run. */
  timeoutMs?: number;
}

/**
 * A small client for the HTTP API. Headers set with `with*` apply to every request of
 * the returned client; the original is left unchanged.
 */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly defaults: Record<string, string> = {},
  ) {}

  withHeaders(headers: Record<string, string>): Api {
    return new Api(this.baseUrl, { ...this.defaults, ...headers });
  }

  withoutHeader(name: string): Api {
    const rest = Object.fromEntries(Object.entries(this.defaults).filter(([k]) => k.toLowerCase() !== name.toLowerCase()));
    return new Api(this.baseUrl, rest);
  }

  withAuthorization(value: string): Api {
    return this.withoutHeader('Authorization').withHeaders({ Authorization: value });
  }

  withoutAuth(): Api {
    return this.withoutHeader('Authorization');
  }

  withProjectKey(key: string): Api {
    return this.withHeaders({ 'X-Project-Key': key });
  }

  withIdempotencyKey(key: string): Api {
    return this.withHeaders({ 'Idempotency-Key': key });
  }

  get<T = unknown>(path: string, query?: Query, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, { ...options, query });
  }

  post<T = unknown>(path: string, json?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, json === undefined ? options : { ...options, json });
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    const headers: Record<string, string> = { ...this.defaults };
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = options.contentType ?? 'application/json';
    } else if (options.raw !== undefined) {
      body = options.raw;
      if (options.contentType) headers['Content-Type'] = options.contentType;
    }
    Object.assign(headers, options.headers);
    const response = await fetch(url, {
      method,
      headers,
      body,
      redirect: options.followRedirects ? 'follow' : 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    // Every answer of the suite is checked against the service's own OpenAPI document.
    await assertConformsToOpenApi(method, url, response.status, response.headers, text);
    const type = response.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (/[/+]json\b/.test(type) && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text; // left as text: the test sees what the server really sent
      }
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text, bytes };
  }
}

/** A client for `baseUrl`, authenticated with `apiKey` as a Bearer token when given. */
export function api(baseUrl: string, apiKey?: string): Api {
  return new Api(baseUrl, apiKey ? { Authorization: `Bearer ${apiKey}` } : {});
}
