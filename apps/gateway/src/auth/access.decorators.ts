import { SetMetadata } from '@nestjs/common';

export type Access = 'public' | 'organization' | 'project';
export const ACCESS_METADATA = 'cinetrace:access';

/** No authentication (health, metrics, API docs). */
export const Public = () => SetMetadata(ACCESS_METADATA, 'public' satisfies Access);
/** An organization API key is enough; no X-Project-Key (the /projects routes). */
export const OrganizationScoped = () => SetMetadata(ACCESS_METADATA, 'organization' satisfies Access);
// Everything else needs both headers: that is the default, so it has no decorator.
