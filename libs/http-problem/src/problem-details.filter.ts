import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from './problem-details';

/**
 * The gateway's one exception filter: every non-2xx answer is problem+json. Unexpected
 * errors are logged by name and message only (no stack, no SQL) and answered as `internal`.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = toProblem(exception, String(request.id));
    if (problem.body.code === 'internal') {
      const err = exception as Error;
      this.logger.error(`${request.method} ${request.routeOptions?.url ?? ''} failed: ${err?.name}: ${err?.message}`);
    }
    reply.status(problem.body.status).header('content-type', 'application/problem+json; charset=utf-8');
    if (problem.retryAfter !== undefined) reply.header('retry-after', String(problem.retryAfter));
    for (const [name, value] of Object.entries(problem.headers ?? {})) reply.header(name, value);
    reply.send(problem.body);
  }
}
