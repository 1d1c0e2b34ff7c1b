import type { OrgContext, ProjectContext } from '@cinetrace/contracts';

/** The caller as the gateway hands it to a service: an organization and its API key. */
export function anOrgContext(orgId = 'org_1', overrides: Partial<OrgContext> = {}): OrgContext {
  return { orgId, apiKeyId: `key_of_${orgId}`, requestId: 'req_1', ...overrides };
}

/** A caller of a project's routes (X-Project-Key resolved). */
export function aProjectContext(projectId = 'prj_1', orgId = 'org_1'): ProjectContext {
  return { ...anOrgContext(orgId), projectId };
}
