import type { ApiKeyScope } from '@cinetrace/contracts';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export type Access = 'public' | 'organization' | 'project';
export const ACCESS_METADATA = 'cinetrace:access';
export const REQUIRED_SCOPE_METADATA = 'cinetrace:required-scope';
export const WHOLE_ORGANIZATION_METADATA = 'cinetrace:whole-organization';
export const INSTANCE_ADMIN_METADATA = 'cinetrace:instance-admin';
/** The same facts for the OpenAPI document (its security and descriptions: openapi/security.ts). */
export const ACCESS_MARK = 'x-access';
export const SCOPE_MARK = 'x-required-scope';

/** No authentication (health, metrics, API docs). */
export const Public = () => applyDecorators(SetMetadata(ACCESS_METADATA, 'public' satisfies Access), ApiExtension(ACCESS_MARK, 'public'));
/** An organization API key is enough; no X-Project-Key (the /projects routes). */
export const OrganizationScoped = () => applyDecorators(SetMetadata(ACCESS_METADATA, 'organization' satisfies Access), ApiExtension(ACCESS_MARK, 'organization'));
// Everything else needs both headers: that is the default, so it has no decorator.

/**
 * The scope a route needs, when it is not the one its method implies: every route has
 * one, GET (and HEAD) `read`, any other method `write` (see scopeForMethod), so a new
 * route cannot be left without. `ingest` for trace ingestion, `admin` for what manages
 * the organization.
 */
export const RequiresScope = (scope: ApiKeyScope) => applyDecorators(SetMetadata(REQUIRED_SCOPE_METADATA, scope), ApiExtension(SCOPE_MARK, scope));

/** Refused (403 insufficient_scope) to a key restricted to some projects: the route acts on the whole organization. */
export const WholeOrganization = () => SetMetadata(WHOLE_ORGANIZATION_METADATA, true);

/**
 * An organization-wide administration route (API keys, secrets): organization scope,
 * `admin`, and a key not restricted to some projects (one that is could otherwise make
 * itself an unrestricted key).
 */
export const OrganizationAdmin = () => applyDecorators(OrganizationScoped(), RequiresScope('admin'), WholeOrganization());

/** Only an instance admin (the bootstrap key, or a key named in INSTANCE_ADMIN_KEY_IDS): creating organizations. */
export const InstanceAdmin = () => applyDecorators(OrganizationAdmin(), SetMetadata(INSTANCE_ADMIN_METADATA, true));
