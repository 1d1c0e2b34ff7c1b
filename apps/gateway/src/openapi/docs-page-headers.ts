import type { FastifyInstance } from 'fastify';

/**
 * The API reference page (/docs, Swagger UI) under the console's rules (http/console-pages.ts),
 * loosened only where Swagger UI needs it: its scripts, styles and document come from this
 * origin; its page and components use inline styles ('unsafe-inline' for styles only: a
 * style cannot run script, and no script may be inline); its stylesheet draws icons from data:
 * URIs. "Try it out" calls this origin only. Nothing may frame the page (clickjacking).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Whether `url` is the reference page or one of its files (scripts, styles, icons). */
export function isDocsPath(url: string): boolean {
  const path = url.split('?')[0];
  return path === '/docs' || path.startsWith('/docs/');
}

/** Gives every answer under /docs the console's headers, with DOCS_CSP for its policy. */
export function secureDocsPage(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isDocsPath(request.url)) return;
    reply.header('Content-Security-Policy', DOCS_CSP).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
  });
}
