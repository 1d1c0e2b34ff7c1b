import { FastifyAdapter } from '@nestjs/platform-fastify';
import { drainRejectedBodies } from './drain-rejected-body';
import { registerJsonBodyParser } from './json-body-parser';
import { requestIdFor } from './request-id';

/**
 * Fastify as the gateway needs it: the body limit, request ids (echoed on every answer,
 * errors included), and JSON as the only body type, so anything else is a 415.
 */
export function createFastifyAdapter(maxBodyBytes: number): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: maxBodyBytes,
    genReqId: requestIdFor,
    requestIdHeader: false,
    logger: false,
    return503OnClosing: true,
    // Client-chosen ids run to 128 characters (more once percent-encoded); Fastify's default is 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
  });
  const fastify = adapter.getInstance();
  fastify.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(fastify);
  drainRejectedBodies(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  return adapter;
}
