import { DomainError, ErrorCode, type ProjectContext } from '@cinetrace/contracts';
import { encodeExportResponse } from '@cinetrace/traces';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpCredentials, type AuthGuard } from '../auth/auth.guard';
import { ingestCaller } from '../auth/ingest-caller';
import { refuseQueryParameters } from '../http/unknown-query.guard';
import type { OtlpBody } from './otlp-body';
import type { OtlpIngest } from './otlp-ingest';
import { OTLP_TRACE_ROUTES } from './otlp-routes';

/**
 * OTLP/HTTP trace export, served on Fastify itself as OTLP/gRPC is served on grpc-js: outside
 * Nest's REST pipeline (its request-logging middleware, guards, pipes and route wrapper),
 * none of which shapes an OTLP answer, and which cost a large share of the gateway's time per
 * export. What that pipeline did for these routes happens here or in Fastify's hooks:
 * the API key, the project key and the `ingest` scope
 * (ingestCaller), no query parameters (UnknownQueryGuard's rule), the body parsers (protobuf,
 * OTLP/JSON, gzip), the request id, HTTP metrics, and every error answered as a
 * google.rpc.Status by GatewayExceptionFilter (Nest's error handler is Fastify's).
 * The keys are checked in the route's onRequest hook, before the body is read: a caller
 * without a valid key learns 401 and nothing about how its body would have been taken
 * (a gzip bomb, garbage, an unknown type), and costs no decompression; and a project
 * holding its share of the decoding threads is refused a large export (429) unread, and one
 * with OTLP_PROJECT_EXPORTS exports in flight is refused any export (429) unread.
 * The OpenAPI document describes them by hand (otlp.openapi.ts).
 */
export function registerOtlpHttpRoutes(fastify: FastifyInstance, auth: AuthGuard, otlp: OtlpIngest): void {
  const callers = new WeakMap<FastifyRequest, { ctx: ProjectContext; free: () => void }>();
  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // In the order the guards ran: the keys first, then the query.
    const ctx = await ingestCaller(auth, httpCredentials(request), String(request.id));
    refuseQueryParameters(request);
    otlp.refuseBeforeReading(ctx, Number(request.headers['content-length'] ?? 0));
    // Held while the export is read, decoded and published, and given back before its answer
    // is sent (a client answered may send its next export at once), or when the connection goes.
    const free = otlp.admit(ctx);
    reply.raw.once('close', free);
    callers.set(request, { ctx, free });
  };
  for (const url of OTLP_TRACE_ROUTES) {
    fastify.post(url, { onRequest: authenticate }, (request, reply) => exportTraces(request, reply, callers.get(request), otlp));
  }
}

async function exportTraces(request: FastifyRequest, reply: FastifyReply, caller: { ctx: ProjectContext; free: () => void } | undefined, otlp: OtlpIngest): Promise<FastifyReply> {
  if (!caller) throw new Error('OTLP export without its authenticated caller');
  let answer: ReturnType<typeof encodeExportResponse>;
  try {
    const body = request.body;
    if (!isOtlpBody(body)) throw new DomainError(ErrorCode.UnsupportedMediaType, 'Send application/x-protobuf or application/json');
    answer = encodeExportResponse(body.encoding, await otlp.export(caller.ctx, body));
  } finally {
    caller.free();
  }
  return reply.status(200).header('content-type', answer.contentType).send(answer.body);
}

function isOtlpBody(body: unknown): body is OtlpBody {
  return typeof body === 'object' && body !== null && Buffer.isBuffer((body as OtlpBody).bytes);
}
