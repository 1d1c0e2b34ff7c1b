import type { Readable } from 'node:stream';
import { observeOutboundCall } from '@cinetrace/metrics';
import { Agent, request } from 'undici';
import { OutboundError } from './outbound-error';
import { publicOnlyLookup, type ResolveHost } from './public-lookup';
import { checkOutboundUrl } from './url-policy';

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface OutboundClientOptions {
  /** Lifts the public-address rule (local development, tests): `OUTBOUND_ALLOW_PRIVATE=true`. */
  allowPrivate: boolean;
  maxResponseBytes?: number;
  userAgent?: string;
  /** How hostnames resolve; tests replace DNS with it. */
  resolve?: ResolveHost;
}

export interface OutboundRequestOptions {
  headers?: Record<string, string>;
  /** For the whole exchange: connecting, the headers and the last byte of the body. */
  timeoutMs: number;
  /** Ends the exchange at once (the caller gave up on it): the connection is dropped. */
  signal?: AbortSignal;
  /** Who the call is for (a target's type, or `scorer`): the only thing about it the metrics name, never the URL. */
  targetType?: string;
}

/** What getStream's consumer learns of the answer besides its body. */
export interface OutboundStreamHead {
  status: number;
  contentType?: string;
}

export interface OutboundResponse {
  status: number;
  body: unknown;
}

/**
 * JSON calls to user-configured URLs under the outbound rules of the API contract:
 * public addresses only (checked on the URL, then on every address a name resolves to
 * when connecting), no redirects, answers bounded in size and time. Every failure is an
 * `OutboundError`.
 */
export class OutboundClient {
  private readonly allowPrivate: boolean;
  private readonly maxResponseBytes: number;
  private readonly userAgent: string;
  private readonly agent: Agent;

  constructor(options: OutboundClientOptions) {
    this.allowPrivate = options.allowPrivate;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.userAgent = options.userAgent ?? 'cinetrace';
    this.agent = new Agent({ connect: { lookup: publicOnlyLookup({ allowPrivate: options.allowPrivate, resolve: options.resolve }) } });
  }

  postJson(url: string, body: unknown, options: OutboundRequestOptions): Promise<OutboundResponse> {
    return this.timed(options.targetType, () => this.send('POST', url, JSON.stringify(body), options));
  }

  getJson(url: string, options: OutboundRequestOptions): Promise<OutboundResponse> {
    return this.timed(options.targetType, () => this.send('GET', url, undefined, options));
  }

  /**
   * GETs `url` and hands its body, unread, to `consume` (which streams it somewhere), under
   * the same rules: public addresses only, no redirects, a non-2xx answer an `http_status`
   * error; `timeoutMs` caps the whole exchange, `consume` included (the body is cut off
   * then). Resolves with what `consume` resolves with.
   */
  getStream<T>(url: string, options: OutboundRequestOptions, consume: (body: Readable, response: OutboundStreamHead) => Promise<T>): Promise<T> {
    const check = checkOutboundUrl(url, { allowPrivate: this.allowPrivate });
    if (!check.ok) return Promise.reject(new OutboundError('refused_address', `url ${check.message}`));
    const host = check.url.host;
    const headers = this.headers({}, options);
    return this.timed(options.targetType, async () => {
      const deadline = new Deadline(options.timeoutMs);
      // What the consumer throws is its own (a size cap, a storage error), unless the time cap cut its source off.
      let consuming = false;
      try {
        const response = await request(check.url, { method: 'GET', headers, dispatcher: this.agent, signal: deadline.signal });
        refuseUnsuccessful(response, host);
        const type = response.headers['content-type'];
        consuming = true;
        return await consume(response.body, { status: response.statusCode, contentType: typeof type === 'string' ? type : undefined });
      } catch (error) {
        if (consuming && !deadline.passed) throw error;
        throw this.toOutboundError(error, deadline.passed, host, options.timeoutMs);
      } finally {
        deadline.clear();
      }
    });
  }

  /** Closes pooled connections (shutdown, end of tests). */
  close(): Promise<void> {
    return this.agent.close();
  }

  private async timed<T>(targetType: string | undefined, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const response = await call();
      observeOutboundCall(targetType, 'ok', (performance.now() - started) / 1000);
      return response;
    } catch (error) {
      observeOutboundCall(targetType, error instanceof OutboundError ? error.reason : 'network', (performance.now() - started) / 1000);
      throw error;
    }
  }

  private async send(method: 'GET' | 'POST', raw: string, body: string | undefined, options: OutboundRequestOptions): Promise<OutboundResponse> {
    // Checked again here: a stored URL may predate the rule, and literals never reach the lookup.
    const check = checkOutboundUrl(raw, { allowPrivate: this.allowPrivate });
    if (!check.ok) throw new OutboundError('refused_address', `url ${check.message}`);
    const { url } = check;

    const headers = this.headers(body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }, options);

    if (options.signal?.aborted) throw abortedError(url.host);
    const deadline = new Deadline(options.timeoutMs);
    const onCallerAbort = (): void => deadline.abort();
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      // undici's request() follows no redirects (that takes the redirect interceptor): a 3xx comes back as is.
      const response = await request(url, { method, headers, body, dispatcher: this.agent, signal: deadline.signal });
      refuseUnsuccessful(response, url.host);
      const text = await this.readBounded(response.body, response.headers['content-length'], url.host);
      return { status: response.statusCode, body: response.statusCode === 204 ? null : parseJson(text, url.host) };
    } catch (error) {
      if (options.signal?.aborted && !deadline.passed) throw abortedError(url.host);
      throw this.toOutboundError(error, deadline.passed, url.host, options.timeoutMs);
    } finally {
      deadline.clear();
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** A call's headers: `own` (what the call sends), then the caller's, lower-cased, which may replace them. */
  private headers(own: Record<string, string>, options: OutboundRequestOptions): Record<string, string> {
    const headers: Record<string, string> = { ...own, 'accept-encoding': 'identity', 'user-agent': this.userAgent };
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  private async readBounded(body: Readable, contentLength: string | string[] | undefined, host: string): Promise<string> {
    const tooLarge = () => new OutboundError('too_large', `the answer of ${host} is larger than ${formatBytes(this.maxResponseBytes)}`);
    if (Number(contentLength) > this.maxResponseBytes) {
      discard(body);
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    // Leaving the loop early (the throw) destroys the stream, which drops the connection.
    // undici's body has no encoding set: its chunks are Buffers.
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > this.maxResponseBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Maps whatever undici, net or dns threw to a reason, with a message built here, not copied. */
  private toOutboundError(error: unknown, timedOut: boolean, host: string, timeoutMs: number): OutboundError {
    if (timedOut) return new OutboundError('timeout', `${host} did not answer within ${timeoutMs} ms`);
    if (error instanceof OutboundError) return error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof OutboundError) return cause;
    const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
    return new OutboundError('network', `could not reach ${host}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
}

function abortedError(host: string): OutboundError {
  return new OutboundError('aborted', `the call to ${host} was abandoned`);
}

/** A call's time cap: its signal aborts the exchange once `timeoutMs` passed (or on abort()). */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  passed = false;

  constructor(timeoutMs: number) {
    this.timer = setTimeout(() => {
      this.passed = true;
      this.controller.abort();
    }, timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(): void {
    this.controller.abort();
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** A non-2xx answer as its error (its body dropped): redirects are not followed, other statuses are the call's failure. */
function refuseUnsuccessful(response: { statusCode: number; body: Readable }, host: string): void {
  const { statusCode } = response;
  if (statusCode >= 200 && statusCode < 300) return;
  discard(response.body);
  if (statusCode >= 300 && statusCode < 400) throw new OutboundError('redirect', `redirects are not followed (${host} answered ${statusCode})`, statusCode);
  throw new OutboundError('http_status', `${host} answered with status ${statusCode}`, statusCode);
}

/** Drops an unread body with its connection; undici reports that as an error nobody needs. */
function discard(body: Readable): void {
  body.on('error', () => undefined).destroy();
}

function parseJson(text: string, host: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new OutboundError('invalid_json', `the answer of ${host} is not JSON`);
  }
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
