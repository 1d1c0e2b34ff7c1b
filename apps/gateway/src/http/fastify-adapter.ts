import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayEnv } from '../gateway.env';
import type { BodyIntake, OwnJsonReader } from './body-intake';
import { answerClientError, answerFrameworkError, MAX_PATH_SEGMENT } from './client-errors';
import { drainRejectedBodies } from './drain-rejected-body';
import { refuseEarly } from './early-refusals';
import { registerJsonBodyParser } from './json-body-parser';
import { sendJsonTextAsIs } from './json-text-reply';
import { requestIdFor } from './request-id';

export type HttpLimits = Pick<GatewayEnv, 'MAX_BODY_BYTES' | 'MAX_JSON_DEPTH' | 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>;

/**
 * Fastify as the gateway needs it: the body limit, time limits on slow clients, request
 * ids (echoed on every answer, errors included), JSON as the only body type but those the
 * domains' `intakes` take on their own routes (anything else is a 415), and every refusal as
 * problem+json, down to what Node's parser refuses.
 */
export function createFastifyAdapter(limits: HttpLimits, intakes: readonly BodyIntake[] = []): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: limits.MAX_BODY_BYTES,
    genReqId: requestIdFor,
    requestIdHeader: false,
    logger: false,
    // Requests that still come in while the server closes get a 503 problem (refuseEarly), not Fastify's own JSON.
    return503OnClosing: false,
    // Fastify's default requestTimeout is 0: a client trickling a body held its connection forever.
    requestTimeout: limits.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: limits.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      // Node answers a missing Host with a bare 400 of its own; refuseEarly answers it as a problem.
      requireHostHeader: false,
      headersTimeout: limits.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: timeoutCheckInterval(limits),
    },
    // Client-chosen ids run to 128 characters (more once percent-encoded); Fastify's default is 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_SEGMENT },
    // What Node's parser and Fastify's router refuse is problem+json too, not their own JSON.
    clientErrorHandler: answerClientError,
    // Fastify ignores what this returns (the reply, which is thenable: nothing to await).
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      answerFrameworkError(error, request, reply);
    },
  });
  const fastify = adapter.getInstance();
  fastify.removeContentTypeParser(['text/plain']);
  const bodyLimits = { maxBodyBytes: limits.MAX_BODY_BYTES };
  const ownJson = intakes.flatMap(({ readJson }): OwnJsonReader[] => (readJson ? [(request, body) => readJson(request, body, bodyLimits)] : []));
  registerJsonBodyParser(fastify, { maxDepth: limits.MAX_JSON_DEPTH, maxBodyBytes: limits.MAX_BODY_BYTES }, ownJson);
  for (const intake of intakes) intake.register(fastify, bodyLimits);
  sendJsonTextAsIs(fastify);
  drainRejectedBodies(fastify);
  refuseEarly(fastify);
  return adapter;
}

/**
 * Node looks for connections past the header and request time limits every
 * connectionsCheckingInterval (30 s by default: a 60 s limit could take 90 s to apply);
 * a tenth of the shorter limit keeps them within 10%.
 */
function timeoutCheckInterval(limits: HttpLimits): number {
  const shorter = Math.min(limits.HTTP_HEADERS_TIMEOUT_MS, limits.HTTP_REQUEST_TIMEOUT_MS);
  return Math.min(30_000, Math.max(50, Math.floor(shorter / 10)));
}
