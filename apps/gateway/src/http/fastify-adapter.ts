import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { GatewayEnv } from '../gateway.env';
import { answerClientError, answerFrameworkError } from './client-errors';
import { drainRejectedBodies } from './drain-rejected-body';
import { registerJsonBodyParser } from './json-body-parser';
import { requestIdFor } from './request-id';

export type HttpLimits = Pick<GatewayEnv, 'MAX_BODY_BYTES' | 'MAX_JSON_DEPTH'>;

/**
 * Fastify as the gateway needs it: the body limit, request ids (echoed on every answer,
 * errors included), JSON as the only body type (anything else is a 415), and every
 * refusal as problem+json, down to what Node's parser refuses.
 */
export function createFastifyAdapter(limits: HttpLimits): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: limits.MAX_BODY_BYTES,
    genReqId: requestIdFor,
    requestIdHeader: false,
    logger: false,
    return503OnClosing: true,
    // Client-chosen ids run to 128 characters (more once percent-encoded); Fastify's default is 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    // What Node's parser and Fastify's router refuse is problem+json too, not their own JSON.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  const fastify = adapter.getInstance();
  fastify.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(fastify, { maxDepth: limits.MAX_JSON_DEPTH });
  drainRejectedBodies(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  return adapter;
}

