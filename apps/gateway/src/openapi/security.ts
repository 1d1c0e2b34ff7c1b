import type { OpenAPIObject } from '@nestjs/swagger';
import { ACCESS_MARK, SCOPE_MARK, type Access } from '../auth/access.decorators';
import { scopeForMethod } from '../auth/scope-rules';
import { operationsOf } from './document-walk';

export const BEARER = 'bearerAuth';
export const PROJECT_KEY = 'projectKey';

/**
 * The two credentials as security schemes: the organization API key as a Bearer token
 * (opaque, not a JWT) and the project key in X-Project-Key. Each operation's requirement
 * comes from the access decorators the auth guard reads (Public, OrganizationScoped,
 * RequiresScope), so the document cannot disagree with the guard.
 */
export function describeSecurity(doc: OpenAPIObject): void {
  doc.components = doc.components ?? {};
  doc.components.securitySchemes = {
    [BEARER]: {
      type: 'http',
      scheme: 'bearer',
      description: 'An organization API key (`Authorization: Bearer <key>`); opaque, stored hashed. Missing or unknown: 401 unauthenticated.',
    },
    [PROJECT_KEY]: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Project-Key',
      description: 'The key of the project the call acts on (every route outside /api/v1/projects, API keys, secrets and organizations).',
    },
  };
  for (const { method, operation } of operationsOf(doc)) {
    const marks = operation as unknown as Record<string, unknown>;
    const access = (marks[ACCESS_MARK] as Access | undefined) ?? 'project';
    const scope = (marks[SCOPE_MARK] as string | undefined) ?? scopeForMethod(method.toUpperCase());
    delete marks[ACCESS_MARK];
    delete marks[SCOPE_MARK];
    if (access === 'public') {
      operation.security = [];
      continue;
    }
    operation.security = [access === 'project' ? { [BEARER]: [], [PROJECT_KEY]: [] } : { [BEARER]: [] }];
    operation.description = [operation.description, `Scope: \`${scope}\` (API reference, "Authentication").`].filter(Boolean).join('\n\n');
    marks[SCOPE_MARK] = scope;
  }
}
