import { DomainError, ErrorCode } from '@cinetrace/contracts';
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
 * none of which shapes an OTLP answer, and which took ~11% of the gateway's busy time per export
 * (bench/README.md, "Round eight"). What that pipeline did for these routes happens here or
 * in Fastify's hooks as before: the API key, the project key and the `ingest` scope
 * (ingestCaller), no query parameters (UnknownQueryGuard's rule), the body parsers (protobuf,
 * OTLP/JSON, gzip), the request id, HTTP metrics, and every error answered as a
 * google.rpc.Status by GatewayExceptionFilter (Nest's error handler is Fastify's).
 * The OpenAPI document describes them by hand (ops/openapi/otlp-operations.ts).
 */
export function registerOtlpHttpRoutes(fastify: FastifyInstance, auth: AuthGuard, otlp: OtlpIngest): void {
  for (const url of OTLP_TRACE_ROUTES) fastify.post(url, (request, reply) => exportTraces(request, reply, auth, otlp));
}

async function exportTraces(request: FastifyRequest, reply: FastifyReply, auth: AuthGuard, otlp: OtlpIngest): Promise<FastifyReply> {
  // In the order the guards ran: the keys first, then the query.
  const ctx = await ingestCaller(auth, httpCredentials(request), String(request.id));
  refuseQueryParameters(request);
  const body = request.body;
  if (!isOtlpBody(body)) throw new DomainError(ErrorCode.UnsupportedMediaType, 'Send application/x-protobuf or application/json');
  const answer = encodeExportResponse(body.encoding, await otlp.export(ctx, body));
  return reply.status(200).header('content-type', answer.contentType).send(answer.body);
}

function isOtlpBody(body: unknown): body is OtlpBody {
  return typeof body === 'object' && body !== null && Buffer.isBuffer((body as OtlpBody).bytes);
}
