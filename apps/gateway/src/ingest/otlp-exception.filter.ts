import { ProblemDetailsFilter, toProblem } from '@cinetrace/http-problem';
import { encodeStatus } from '@cinetrace/traces';
import { ArgumentsHost, Catch, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestEncoding } from './otlp-body';
import { isOtlpRoute } from './otlp-routes';
import { GRPC_CODE_FOR_HTTP_STATUS } from './otlp-status-codes';

/**
 * The gateway's exception filter: problem details everywhere (ProblemDetailsFilter), but
 * on the OTLP routes the answer the OTLP specification asks for: the same HTTP status
 * (429 and 503 with Retry-After, which exporters honour), and a google.rpc.Status body in
 * the request's encoding. Global, so it also answers what fails before the handler runs
 * (the body over the limit, an unknown content type, authentication).
 */
@Catch()
export class GatewayExceptionFilter extends ProblemDetailsFilter {
  private readonly otlpLogger = new Logger('Http');

  override catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    if (!isOtlpRoute(request)) return super.catch(exception, host);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const problem = toProblem(exception, String(request.id));
    if (problem.body.code === 'internal') {
      const err = exception as Error;
      // The OTLP routes have no request logger (otlp-http.routes.ts): the line names its request.
      this.otlpLogger.error(`${request.method} ${request.routeOptions?.url ?? ''} failed: ${err?.name}: ${err?.message} (request ${String(request.id)})`);
    }
    const status = problem.body.status;
    const { contentType, body } = encodeStatus(requestEncoding(request), GRPC_CODE_FOR_HTTP_STATUS[status] ?? 2, problem.body.detail);
    reply.status(status).header('content-type', contentType).header('x-request-id', problem.body.requestId);
    if (problem.retryAfter !== undefined) reply.header('retry-after', String(problem.retryAfter));
    for (const [name, value] of Object.entries(problem.headers ?? {})) reply.header(name, value);
    reply.send(body);
  }
}
