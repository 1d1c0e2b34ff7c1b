import { CreateOrganizationsAndProjects1763791200000 } from './1763791200000-CreateOrganizationsAndProjects';

/** In order of their timestamps. */
export const projectServiceMigrations = [CreateOrganizationsAndProjects1763791200000];
