import { hashApiKey } from '@cinetrace/auth';
import { BusClient } from '@cinetrace/bus';
import { AuthResolveReply, AuthResolveRequest, DomainError, ErrorCode, Patterns } from '@cinetrace/contracts';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Access, ACCESS_METADATA, INSTANCE_ADMIN_METADATA, REQUIRED_SCOPE_METADATA, WHOLE_ORGANIZATION_METADATA } from './access.decorators';
import { AuthCache } from './auth-cache';
import type { AuthenticatedRequest, ResolvedAuth } from './caller';
import { checkScope, RouteRequirement, scopeForMethod } from './scope-rules';
import type { FastifyRequest } from 'fastify';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The two auth headers' values, however they arrived (HTTP headers, gRPC metadata). */
export interface Credentials {
  authorization?: string;
  projectKey?: string;
}

/**
 * Authenticates every route that is not @Public: the org API key, then (by default)
 * X-Project-Key; then checks the key's scopes against the route's (see access.decorators).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly bus: BusClient,
    @Inject(AuthCache) private readonly cache: AuthCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const access = this.reflector.getAllAndOverride<Access>(ACCESS_METADATA, targets) ?? 'project';
    if (access === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const route: RouteRequirement = {
      scope: this.reflector.getAllAndOverride(REQUIRED_SCOPE_METADATA, targets) ?? scopeForMethod(request.method),
      wholeOrganization: this.reflector.getAllAndOverride<boolean>(WHOLE_ORGANIZATION_METADATA, targets) ?? false,
      instanceAdmin: this.reflector.getAllAndOverride<boolean>(INSTANCE_ADMIN_METADATA, targets) ?? false,
    };
    request.auth = await this.authenticate(httpCredentials(request), access, route);
    return true;
  }

  /**
   * The caller behind these credentials, if they may do what `route` asks: the org API key,
   * then (for project access) the project key, then the key's scopes. Also what callers
   * outside HTTP use (the OTLP gRPC service).
   */
  async authenticate(credentials: Credentials, access: Exclude<Access, 'public'>, route: RouteRequirement): Promise<ResolvedAuth> {
    const apiKey = BEARER.exec(credentials.authorization ?? '')?.[1];
    if (!apiKey) {
      throw new DomainError(ErrorCode.Unauthenticated, 'Send your organization API key as "Authorization: Bearer <key>"');
    }
    let projectKey: string | undefined;
    if (access === 'project') {
      projectKey = credentials.projectKey?.trim();
      if (!projectKey) throw new DomainError(ErrorCode.ProjectKeyRequired, 'Send the project key as X-Project-Key');
    }
    const auth = await this.resolve({ apiKeyHash: hashApiKey(apiKey), projectKey });
    checkScope(auth, route);
    return auth;
  }

  private async resolve(query: AuthResolveRequest): Promise<AuthResolveReply> {
    const cacheKey = `${query.apiKeyHash}:${query.projectKey ?? ''}`;
    return this.cache.resolve(cacheKey, async () => withScopes(await this.bus.request(Patterns.AuthResolve, query)));
  }
}

/**
 * A project-service of the release before scopes (met while a deployment rolls) answers
 * without them. Its keys may include keys made since with narrower scopes, so the
 * answer cannot be trusted either way: 503, and the client's retry meets a new replica.
 */
function withScopes(reply: AuthResolveReply): AuthResolveReply {
  if (Array.isArray(reply.scopes)) return reply;
  throw new DomainError(ErrorCode.Unavailable, 'Authentication is being upgraded; try again', undefined, 2);
}

/** The two auth values of an HTTP request (the first of each header sent twice): the guard's, and the routes' served outside Nest. */
export function httpCredentials(request: Pick<FastifyRequest, 'headers'>): Credentials {
  return { authorization: firstHeader(request, 'authorization'), projectKey: firstHeader(request, 'x-project-key') };
}

/** A request header's value, the first one when it was sent twice. */
export function firstHeader(request: Pick<FastifyRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
