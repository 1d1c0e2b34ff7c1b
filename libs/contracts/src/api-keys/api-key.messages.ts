import type { OrgContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { CreateApiKeyInput } from './api-key.inputs';

export interface ApiKeyCreateRequest {
  ctx: OrgContext;
  input: CreateApiKeyInput;
}

/** Keyset position of the keys list: the last key's id (ids sort by time). */
export type ApiKeyListKey = string;

export interface ApiKeyListRequest {
  ctx: OrgContext;
  page: PageRequest<ApiKeyListKey>;
}

export interface ApiKeyRevokeRequest {
  ctx: OrgContext;
  id: string;
}
