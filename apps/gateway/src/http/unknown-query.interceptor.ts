import { DomainError } from '@cinetrace/contracts';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';

/**
 * One rule for query parameters on every route: a parameter the route does not define is a
 * 400 naming it. A handler that takes `@Query()` reads its query and checks it itself
 * (parseListQuery for lists, parseResourceQuery for `?version=`); any other route defines
 * none, so it refuses every one. Decided here rather than in each handler, so a new route
 * cannot forget it.
 */
@Injectable()
export class UnknownQueryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const query = context.switchToHttp().getRequest<FastifyRequest>().query as Record<string, unknown> | undefined;
    const names = Object.keys(query ?? {});
    if (names.length && !readsItsQuery(context)) {
      throw DomainError.validation(names.map((name) => ({ path: name, message: 'is not a parameter of this route' })));
    }
    return next.handle();
  }
}

function readsItsQuery(context: ExecutionContext): boolean {
  const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) as Record<string, unknown> | undefined) ?? {};
  // Keys are `<param type>:<index>`.
  return Object.keys(params).some((key) => Number(key.split(':')[0]) === RouteParamtypes.QUERY);
}
