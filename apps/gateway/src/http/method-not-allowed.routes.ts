import { MethodNotAllowedError, sendProblem, toProblem } from '@cinetrace/http-problem';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** Resources and the methods they answer; every other method gets 405 with `Allow`. */
export const RESOURCE_METHODS: Record<string, HTTPMethods[]> = {
  '/api/v1/projects': ['GET', 'POST'],
  '/api/v1/projects/:id': ['GET'],
  '/api/v1/api-keys': ['GET', 'POST'],
  '/api/v1/api-keys/:id': ['DELETE'],
  '/api/v1/organizations': ['POST'],
  '/api/v1/secrets': ['GET', 'POST'],
  '/api/v1/secrets/:id': ['PUT', 'DELETE'],
  '/api/v1/secrets/:id/activity': ['GET'],
  '/api/v1/prompts': ['GET', 'POST'],
  '/api/v1/prompts/:id': ['GET', 'PUT', 'DELETE'],
  '/api/v1/prompts/:id/versions': ['GET'],
  '/api/v1/prompts/:id/activity': ['GET'],
  '/api/v1/prompts/:id/releases': ['GET'],
  '/api/v1/prompts/:id/releases/:name': ['PUT', 'DELETE'],
  '/api/v1/prompts/:id/diff': ['GET'],
  '/api/v1/prompts/:id/render': ['POST'],
  '/api/v1/prompts/by-identifier/:identifier': ['GET'],
  '/api/v1/traces': ['GET', 'POST'],
  '/api/v1/traces/batch': ['POST'],
  '/api/v1/traces/:id': ['GET'],
  '/api/v1/datasets': ['GET', 'POST'],
  '/api/v1/datasets/:id': ['GET', 'DELETE'],
  '/api/v1/datasets/:id/items': ['GET', 'POST'],
  '/api/v1/benchmarks': ['GET', 'POST'],
  '/api/v1/benchmarks/:id': ['GET', 'DELETE'],
  '/api/v1/benchmarks/:id/start': ['POST'],
  '/api/v1/benchmarks/:id/runs': ['GET'],
  '/api/v1/benchmarks/:id/tasks': ['GET'],
  '/api/v1/media': ['GET', 'POST'],
  '/api/v1/media/:id': ['GET'],
  '/api/v1/media/:id/content': ['GET'],
  '/api/v1/media/:id/frames': ['GET'],
  '/api/v1/media/:id/storyboard': ['GET'],
  '/api/v1/media/:id/annotations': ['GET', 'POST'],
};

/**
 * Every method Fastify routes (OPTIONS and TRACE among them) that a resource does not
 * answer is a 405 with `Allow`. HEAD goes with GET: Fastify adds it to a route with GET.
 */
export function registerMethodNotAllowed(fastify: FastifyInstance): void {
  for (const [url, allowed] of Object.entries(RESOURCE_METHODS)) {
    const others = fastify.supportedMethods.filter((m) => m !== 'HEAD' && !allowed.includes(m as HTTPMethods));
    fastify.route({
      method: others,
      url,
      handler: async (request, reply) => sendProblem(reply, toProblem(new MethodNotAllowedError(request.method, allowed), String(request.id))),
    });
  }
}
