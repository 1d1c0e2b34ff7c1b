import { MethodNotAllowedError, toProblem } from '@cinetrace/http-problem';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** Resources and the methods they answer; every other method gets 405 with `Allow`. */
export const RESOURCE_METHODS: Record<string, HTTPMethods[]> = {
  '/api/v1/projects': ['GET', 'POST'],
  '/api/v1/projects/:id': ['GET'],
  '/api/v1/api-keys': ['GET', 'POST'],
  '/api/v1/api-keys/:id': ['DELETE'],
  '/api/v1/organizations': ['POST'],
  '/api/v1/prompts': ['GET', 'POST'],
  '/api/v1/prompts/:id': ['GET', 'PUT', 'DELETE'],
  '/api/v1/prompts/:id/versions': ['GET'],
  '/api/v1/prompts/:id/activity': ['GET'],
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
};

const ALL_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function registerMethodNotAllowed(fastify: FastifyInstance): void {
  for (const [url, allowed] of Object.entries(RESOURCE_METHODS)) {
    const others = ALL_METHODS.filter((m) => !allowed.includes(m));
    fastify.route({
      method: others,
      url,
      handler: async (request, reply) => {
        const problem = toProblem(new MethodNotAllowedError(request.method, allowed), String(request.id));
        return reply
          .status(problem.body.status)
          .headers(problem.headers ?? {})
          .header('content-type', 'application/problem+json; charset=utf-8')
          .send(problem.body);
      },
    });
  }
}
