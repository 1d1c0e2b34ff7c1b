import type { FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Problem } from './problem-details';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** Answers with a problem: its status, the problem+json type, X-Request-Id, Retry-After and any header it carries. */
export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  reply.status(problem.body.status).header('content-type', PROBLEM_CONTENT_TYPE).header('x-request-id', problem.body.requestId);
  if (problem.retryAfter !== undefined) reply.header('retry-after', String(problem.retryAfter));
  for (const [name, value] of Object.entries(problem.headers ?? {})) reply.header(name, value);
  return reply.send(problem.body);
}

/**
 * A whole HTTP/1.1 response carrying a problem, for a connection no request object can
 * answer (Node's HTTP parser refused what came in, or a time limit ran out); the server
 * closes the connection after it.
 */
export function rawProblemResponse(problem: Problem): string {
  const body = JSON.stringify(problem.body);
  const status = problem.body.status;
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? problem.body.title}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${problem.body.requestId}`,
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}
