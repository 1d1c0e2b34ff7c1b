import type { OrgContext, ProjectContext } from '@cinetrace/contracts';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export interface ResolvedAuth {
  orgId: string;
  apiKeyId: string;
  project?: { id: string; key: string };
}

export type AuthenticatedRequest = FastifyRequest & { auth?: ResolvedAuth };

/** The caller as services see it: organization, key, request id (and project on project routes). */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): OrgContext | ProjectContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const auth = request.auth!;
  const ctx: OrgContext = { orgId: auth.orgId, apiKeyId: auth.apiKeyId, requestId: String(request.id) };
  return auth.project ? { ...ctx, projectId: auth.project.id } : ctx;
});
