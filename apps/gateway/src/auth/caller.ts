import { scopeAllows, type AuthResolveReply, type OrgContext, type ProjectContext } from '@cinetrace/contracts';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The caller's key as project-service resolved it: organization, scopes, project restriction, and the project asked for. */
export type ResolvedAuth = AuthResolveReply;

export type AuthenticatedRequest = FastifyRequest & { auth?: ResolvedAuth };

/** The caller as services see it: organization, key, request id (and project on project routes). */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): OrgContext | ProjectContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return callerContext(request.auth!, String(request.id));
});

/** The context services get for a caller authenticated as `auth` (HTTP routes, the OTLP gRPC service). */
export function callerContext(auth: ResolvedAuth, requestId: string): OrgContext | ProjectContext {
  const ctx: OrgContext = { orgId: auth.orgId, apiKeyId: auth.apiKeyId, requestId };
  // Only organization routes need it: on a project route the guard has already checked the project.
  if (auth.projectIds && !auth.project) ctx.projectIds = auth.projectIds;
  return auth.project ? { ...ctx, projectId: auth.project.id } : ctx;
}

/** Whether the caller's key has `admin` (a route open to `write` that asks more for some changes: a release's gate). */
export const CallerIsAdmin = createParamDecorator((_: unknown, context: ExecutionContext): boolean => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return scopeAllows(request.auth!.scopes, 'admin');
});
