import { CreateOrganizationsAndProjects1763791200000 } from './1763791200000-CreateOrganizationsAndProjects';
import { AddApiKeyScopes1764100000000 } from './1764100000000-AddApiKeyScopes';

/** In order of their timestamps. */
export const projectServiceMigrations = [CreateOrganizationsAndProjects1763791200000, AddApiKeyScopes1764100000000];
