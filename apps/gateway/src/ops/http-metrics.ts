import { collectProcessMetrics, observeHttpRequest } from '@cinetrace/metrics';
import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * Feeds the process's metrics registry (libs/metrics) with the gateway's request
 * durations by route and status, and names its process metrics `cinetrace_gateway_…`.
 */
@Injectable()
export class HttpMetrics {
  constructor() {
    collectProcessMetrics('gateway');
  }

  /** Route templates, not raw URLs, keep the label set small. */
  attach(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', async (request, reply) => {
      observeHttpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    });
  }
}
