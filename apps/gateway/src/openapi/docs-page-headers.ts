import type { FastifyInstance } from 'fastify';
import { PAGE_HEADERS, pageSecurityPolicy } from '../http/page-security';

/**
 * The API reference page (/docs, Swagger UI) under the common page rules (http/page-security.ts),
 * loosened only where Swagger UI needs it: its page and components use inline styles
 * ('unsafe-inline' for styles only: a style cannot run script, and no script may be inline);
 * its stylesheet draws icons from data: URIs. "Try it out" calls this origin only.
 */
export const DOCS_CSP = pageSecurityPolicy({ 'style-src': "'self' 'unsafe-inline'", 'img-src': "'self' data:" });

/** Whether `url` is the reference page or one of its files (scripts, styles, icons). */
export function isDocsPath(url: string): boolean {
  const path = url.split('?')[0];
  return path === '/docs' || path.startsWith('/docs/');
}

/** Gives every answer under /docs the pages' headers, with DOCS_CSP for its policy. */
export function secureDocsPage(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isDocsPath(request.url)) return;
    reply.header('Content-Security-Policy', DOCS_CSP).headers(PAGE_HEADERS);
  });
}
