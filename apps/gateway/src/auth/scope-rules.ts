import { ApiKeyScope, AuthResolveReply, DomainError, ErrorCode, scopeAllows } from '@cinetrace/contracts';

/** What a route asks of the caller's key, beyond being a valid key of the organization. */
export interface RouteRequirement {
  scope: ApiKeyScope;
  wholeOrganization: boolean;
  instanceAdmin: boolean;
}

/** The scope a route without @RequiresScope needs: reading is `read`, anything else changes something. */
export function scopeForMethod(method: string): ApiKeyScope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/** Throws `insufficient_scope` (403) when the key may not use the route; the caller is known and the route is theirs. */
export function checkScope(auth: Pick<AuthResolveReply, 'scopes' | 'projectIds' | 'instanceAdmin'>, route: RouteRequirement): void {
  if (route.instanceAdmin && !auth.instanceAdmin) {
    throw new DomainError(ErrorCode.InsufficientScope, 'Only an instance admin key (the bootstrap key) may do this');
  }
  if (!scopeAllows(auth.scopes, route.scope)) {
    throw new DomainError(ErrorCode.InsufficientScope, `This route needs an API key with the '${route.scope}' scope; this key has ${auth.scopes.map((s) => `'${s}'`).join(', ')}`);
  }
  if (route.wholeOrganization && auth.projectIds !== null) {
    throw new DomainError(ErrorCode.InsufficientScope, 'This route acts on the whole organization; this key is restricted to some projects');
  }
}
