import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { rawProblemResponse, sendProblem, toProblem } from '@cinetrace/http-problem';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { requestIdOf } from './request-id';

/** What Node's parser gives clientError (Fastify's ConnectionError type has rawPacket wrong: it is a Buffer). */
type ParserError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/**
 * Answers what Node's HTTP parser refuses before any request exists (a malformed request
 * line or header, headers over Node's 16 KiB, a request not received within the time
 * limits) with a problem+json, then closes the connection, as Node itself would with a
 * bare status line. Nothing is written once an answer to the request has started.
 */
export function answerClientError(error: Error, socket: Socket): void {
  const err = error as ParserError;
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // The response Node has made for a request whose headers it read (internal, but how Node itself decides).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(rawProblemResponse(toProblem(clientErrorFor(err), requestIdOf(inFlight?.req))));
  }
  socket.destroy();
}

function clientErrorFor(err: ParserError): DomainError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new DomainError(ErrorCode.RequestTimeout, 'The request did not arrive in time; the connection is closed');
    case 'HPE_HEADER_OVERFLOW':
      return hasLongRequestLine(err.rawPacket)
        ? new DomainError(ErrorCode.UriTooLong, 'The URL is too long: the request line and headers must fit in 16 KiB')
        : new DomainError(ErrorCode.HeadersTooLarge, 'The request line and headers are longer than the 16 KiB the server reads');
    default:
      return new DomainError(ErrorCode.MalformedRequest, `The request is not valid HTTP/1.1: ${err.reason ?? err.message}`);
  }
}

/** Half of Node's 16 KiB for the request line alone: past it, the URL is what overflowed (414, not 431). */
const LONG_REQUEST_LINE = 8 * 1024;

/** The bytes Node's parser refused start with a request line of LONG_REQUEST_LINE or more. */
function hasLongRequestLine(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ \S/.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\r\n');
  return (lineEnd < 0 ? packet.length : lineEnd) >= LONG_REQUEST_LINE;
}

/** The longest path segment (an id) the router takes: Fastify's maxParamLength. */
export const MAX_PATH_SEGMENT = 1024;

const uriTooLong = () => new DomainError(ErrorCode.UriTooLong, `A segment of the URL is longer than the ${MAX_PATH_SEGMENT} characters any id can have`);

/** Whether a segment of the URL's path is longer than MAX_PATH_SEGMENT. */
export function hasOverlongSegment(url: string): boolean {
  return url
    .split('?')[0]
    .split('/')
    .some((segment) => segment.length > MAX_PATH_SEGMENT);
}

/**
 * For a route that matches any path (the console's): a path no other route took because a
 * segment is too long for an id answers 414, as it does where no such route exists.
 */
export function answerUriTooLong(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(reply, toProblem(uriTooLong(), String(request.id)));
}

/**
 * Fastify's own answers for a URL it cannot route (FST_ERR_BAD_URL: a %-escape that is
 * not UTF-8; FST_ERR_MAX_PARAM_LENGTH: a path segment over 1024 characters) as problems.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const domain =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? uriTooLong()
      : error.code === 'FST_ERR_BAD_URL'
        ? new DomainError(ErrorCode.MalformedRequest, 'The URL is not valid: a %-escape does not decode to UTF-8')
        : error;
  return sendProblem(reply, toProblem(domain, String(request.id)));
}
