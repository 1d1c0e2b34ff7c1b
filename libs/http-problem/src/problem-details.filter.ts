import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from './problem-details';
import { sendProblem } from './send-problem';

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
    sendProblem(reply, problem);
  }
}
