import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { answerUriTooLong, hasOverlongSegment } from './client-errors';
import { PAGE_HEADERS, pageSecurityPolicy } from './page-security';

/**
 * Paths the console never answers: the API, OTLP, operations and the API's docs keep
 * their own answers, 404s included (problem+json, not the console's page).
 */
const NOT_CONSOLE = ['/api', '/v1', '/healthz', '/readyz', '/metrics', '/docs', '/assets'];

/**
 * The console's pages under the common page rules (page-security.ts), loosened for media:
 * images and media may also come from any https: URL (the videos and images a provider
 * returns live on its CDN), and from data:/blob: (small previews, media fetched with the
 * API key and played from memory).
 */
export const CONSOLE_CSP = pageSecurityPolicy({ 'img-src': "'self' https: data: blob:", 'media-src': "'self' https: data: blob:" });

/** Where the built console is: apps/console/dist, found through its workspace package. */
export function consoleDistDir(): string | null {
  try {
    const dir = join(dirname(require.resolve('@cinetrace/console/package.json')), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : null;
  } catch {
    return null;
  }
}

/** Whether `url` is a console page (not an API, OTLP, operations, docs or asset path). */
export function isConsolePath(url: string): boolean {
  const path = url.split('?')[0];
  return !NOT_CONSOLE.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** A browser navigating asks for HTML; API clients (JSON, or curl's any-type default) keep the API's 404. */
export function acceptsHtml(accept: string | undefined): boolean {
  return !!accept && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

/**
 * Serves the console from `dir`: hashed assets under /assets/ as immutable (a new build
 * has new names), and index.html, never cached without revalidation, for every GET/HEAD
 * of a console path that accepts HTML (client-side routes such as /traces/abc). Anything
 * else falls through to the usual 404 problem.
 */
export function serveConsole(fastify: FastifyInstance, dir: string): void {
  const index = readFileSync(join(dir, 'index.html'));
  // Not awaited: awaiting would load the plugin queue now, before Nest sets its error
  // handler at init, and routes registered so far would answer errors with Fastify's own.
  void fastify.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    cacheControl: true,
    maxAge: 31_536_000_000,
    immutable: true,
    setHeaders: (res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isConsolePath(request.url) || !acceptsHtml(request.headers.accept)) {
      // This route matches any path, so it also takes those the router refused for a segment too long for an id.
      return hasOverlongSegment(request.url) ? answerUriTooLong(request, reply) : reply.callNotFound();
    }
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CONSOLE_CSP)
      .headers(PAGE_HEADERS)
      .header('Vary', 'Accept')
      .send(index);
  };
  fastify.get('/', page);
  fastify.get('/*', page);
}
