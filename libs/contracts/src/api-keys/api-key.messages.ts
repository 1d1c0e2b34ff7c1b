import type { OrgContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { CreateApiKeyInput } from './api-key.inputs';

/**
 * A new key as it crosses the bus: the gateway generates the key and sends its SHA-256
 * and the shown prefix only (bus messages and replies land in Kafka's log, no place for
 * a secret); it adds the key itself to its answer.
 */
export interface NewKeyDigest {
  keyHash: string;
  /** The key's first characters and an ellipsis (`ct_AbCd…`). */
  preview: string;
}

export interface ApiKeyCreateRequest {
  ctx: OrgContext;
  input: CreateApiKeyInput;
  credential: NewKeyDigest;
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
