import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { firstHeader, httpCredentials, type AuthGuard } from '../auth/auth.guard';
import { ingestCaller } from '../auth/ingest-caller';
import { refuseQueryParameters } from '../http/unknown-query.guard';
import { ingestOneTrace } from '../traces/ingest-one-trace';
import type { TraceIngestor } from '../traces/trace-ingestor';

/** The route, as TracesController declares it (POST api/v1/traces). */
const INGEST_ROUTE = '/api/v1/traces';

/**
 * POST /api/v1/traces, the hottest route, answered in a Fastify preHandler of the route Nest
 * registers, before Nest's route wrapper runs: its guards, interceptors, pipes and param
 * decorators through rxjs are a visible share of the CPU each trace costs. What they did for
 * this route happens here, in their order: the keys and the `ingest` scope (ingestCaller), no
 * query parameter (UnknownQueryGuard's rule), then ingestOneTrace, as the controller runs it.
 * Errors reach GatewayExceptionFilter as any route's do (Nest's error handler is Fastify's).
 *
 * A request with an `Idempotency-Key` passes on to the controller: IdempotencyInterceptor
 * stores and replays its answer. The controller keeps describing the route in the OpenAPI
 * document. Register before Nest registers its routes (app.listen / app.init).
 */
export function serveTraceIngestFastPath(fastify: FastifyInstance, auth: AuthGuard, ingestor: TraceIngestor): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.url !== INGEST_ROUTE || !asList(route.method).includes('POST')) return;
    const fastPath = (request: FastifyRequest, reply: FastifyReply) => ingestUnlessIdempotent(request, reply, auth, ingestor);
    route.preHandler = [...asList(route.preHandler), fastPath];
  });
}

async function ingestUnlessIdempotent(request: FastifyRequest, reply: FastifyReply, auth: AuthGuard, ingestor: TraceIngestor): Promise<FastifyReply | undefined> {
  if (request.headers['idempotency-key'] !== undefined) return undefined;
  const ctx = await ingestCaller(auth, httpCredentials(request), String(request.id));
  refuseQueryParameters(request);
  const answer = await ingestOneTrace(ingestor, ctx, request.body, firstHeader(request, 'prefer'), reply);
  return reply.send(answer);
}

function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
