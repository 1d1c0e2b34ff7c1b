import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';

/**
 * Service side of the bus: a DomainError crosses as its payload (code, detail, field
 * errors); anything else is logged here and crosses as a bare `internal`, so no stack,
 * SQL or secret ever reaches the caller.
 */
@Catch()
export class BusExceptionFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('BusHandler');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (exception instanceof DomainError) return throwError(() => exception.toPayload());
    const pattern = host.switchToRpc().getContext<{ getPattern?: () => string } | undefined>()?.getPattern?.() ?? 'unknown';
    const name = exception instanceof Error ? exception.name : typeof exception;
    this.logger.error(`Unhandled ${name} while answering '${pattern}': ${(exception as Error)?.message ?? ''}`);
    return throwError(() => ({ code: ErrorCode.Internal, detail: 'Internal error' }));
  }
}
