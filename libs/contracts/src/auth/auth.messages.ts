import type { ApiKeyScope } from '../api-keys/api-key-scopes';

/**
 * The gateway sends the SHA-256 of the presented API key, never the key itself:
 * bus messages land in Kafka's log, which is no place for a secret.
 */
export interface AuthResolveRequest {
  apiKeyHash: string;
  projectKey?: string;
}

export interface AuthResolveReply {
  orgId: string;
  apiKeyId: string;
  /** What the key may do; the gateway matches them against the route's required scope. */
  scopes: ApiKeyScope[];
  /** The projects the key is restricted to; null: every project of the organization. */
  projectIds: string[] | null;
  /** May create organizations (the bootstrap key, or a key named in INSTANCE_ADMIN_KEY_IDS). */
  instanceAdmin: boolean;
  project?: { id: string; key: string };
}
