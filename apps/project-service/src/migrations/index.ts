import { CreateOrganizationsAndProjects1763791200000 } from './1763791200000-CreateOrganizationsAndProjects';
import { AddApiKeyScopes1764100000000 } from './1764100000000-AddApiKeyScopes';
import { CreateSecrets1764100000001 } from './1764100000001-CreateSecrets';
import { RecordSecretReferences1766200000000 } from './1766200000000-RecordSecretReferences';

/** In order of their timestamps. */
export const projectServiceMigrations = [
  CreateOrganizationsAndProjects1763791200000,
  AddApiKeyScopes1764100000000,
  CreateSecrets1764100000001,
  RecordSecretReferences1766200000000,
];
