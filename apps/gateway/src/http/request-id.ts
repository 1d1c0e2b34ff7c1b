import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id each request got, for an answer written to its socket rather than through Fastify.
 * A property of the request itself, not a WeakMap entry: every weak entry keyed by a young
 * object is work for the next scavenge.
 */
const ASSIGNED_ID = Symbol('cinetrace.requestId');

type WithRequestId = IncomingMessage & { [ASSIGNED_ID]?: string };

/** The client's X-Request-Id when it is a sane token, else a new UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
  (req as WithRequestId)[ASSIGNED_ID] = id;
  return id;
}

/** The id the request already has (see requestIdFor), or a new one when none came far enough to get one. */
export function requestIdOf(req: IncomingMessage | undefined): string {
  return (req as WithRequestId | undefined)?.[ASSIGNED_ID] ?? randomUUID();
}
