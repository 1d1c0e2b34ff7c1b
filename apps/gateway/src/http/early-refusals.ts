import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { sendProblem, toProblem } from '@cinetrace/http-problem';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/**
 * Requests refused before routing, as problems with Connection: close: one that arrives
 * on a kept-alive connection after shutdown began (503, for a load balancer to send
 * elsewhere; Fastify's return503OnClosing answered its own JSON), and an HTTP/1.1 request
 * without Host (Node's requireHostHeader answered a bare 400). Also echoes X-Request-Id on
 * every answer, errors included.
 */
export function refuseEarly(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const refusal = closing
      ? new DomainError(ErrorCode.Unavailable, 'The server is shutting down')
      : lacksHost(request.raw)
        ? new DomainError(ErrorCode.MalformedRequest, 'An HTTP/1.1 request needs a Host header (RFC 9112)')
        : undefined;
    if (refusal) return sendProblem(reply.header('connection', 'close'), toProblem(refusal, request.id));
  });
}

/** HTTP/1.1 requires a Host header (HTTP/1.0 does not have to send one). */
const lacksHost = (req: IncomingMessage): boolean => req.httpVersion === '1.1' && req.headers.host === undefined;
