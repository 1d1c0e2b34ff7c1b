import type { OrgContext } from '../context';
import type { CreateOrganizationInput } from './organization.inputs';

/** Sent only by an instance admin (the gateway checks before sending). */
export interface OrganizationCreateRequest {
  ctx: OrgContext;
  input: CreateOrganizationInput;
}
