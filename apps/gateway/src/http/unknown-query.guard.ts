import { DomainError } from '@cinetrace/contracts';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';

/**
 * One rule for query parameters on every route: a parameter the route does not define is a
 * 400 naming it. A handler that takes `@Query()` reads its query and checks it itself
 * (parseListQuery for lists, parseResourceQuery for `?version=`); any other route defines
 * none, so it refuses every one. Decided here rather than in each handler, so a new route
 * cannot forget it. A guard (after AuthGuard), not an interceptor: it only refuses, and each
 * interceptor wraps the handler in an AsyncResource.bind of its own, paid on every request.
 */
@Injectable()
export class UnknownQueryGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!readsItsQuery(context)) refuseQueryParameters(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}

/** The rule for a route that defines no query parameter (also the OTLP routes, served outside Nest): each one sent is a 400 naming it. */
export function refuseQueryParameters(request: Pick<FastifyRequest, 'query'>): void {
  const names = Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
  if (names.length) throw DomainError.validation(names.map((name) => ({ path: name, message: 'is not a parameter of this route' })));
}

function readsItsQuery(context: ExecutionContext): boolean {
  const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) as Record<string, unknown> | undefined) ?? {};
  // Keys are `<param type>:<index>`.
  return Object.keys(params).some((key) => Number(key.split(':')[0]) === RouteParamtypes.QUERY);
}
