import type { NewKeyDigest } from '../api-keys/api-key.messages';
import type { OrgContext } from '../context';
import type { CreateOrganizationInput } from './organization.inputs';

/** Sent only by an instance admin (the gateway checks before sending). */
export interface OrganizationCreateRequest {
  ctx: OrgContext;
  input: CreateOrganizationInput;
  /** The first admin key's digest (see NewKeyDigest). */
  credential: NewKeyDigest;
}
