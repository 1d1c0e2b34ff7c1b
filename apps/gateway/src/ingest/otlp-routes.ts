import type { FastifyRequest } from 'fastify';

/**
 * The OTLP/HTTP trace routes. `/v1/traces` is what exporters append to
 * OTEL_EXPORTER_OTLP_ENDPOINT; the second sits under the API's prefix for proxies that
 * route only /api. Never rename: exporters are configured with them.
 */
export const OTLP_TRACE_ROUTES = ['/v1/traces', '/api/v1/otel/v1/traces'] as const;

/** Whether a request was routed to an OTLP route (these answer per the OTLP specification, not with problem details). */
export function isOtlpRoute(request: Pick<FastifyRequest, 'routeOptions'>): boolean {
  return (OTLP_TRACE_ROUTES as readonly string[]).includes(request.routeOptions?.url ?? '');
}
