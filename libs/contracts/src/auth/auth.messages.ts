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
  project?: { id: string; key: string };
}
