/**
 * What an organization API key may do (API.md, "Authentication and scoping"). Stored
 * with each key and matched by clients: never rename one.
 */
export const API_KEY_SCOPES = ['admin', 'read', 'write', 'ingest'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * The key scopes that satisfy a route's required scope: `admin` does everything, `write`
 * reads too, and trace ingestion is open to `ingest` and `write` (and `admin`).
 */
export const SCOPES_SATISFYING: Record<ApiKeyScope, readonly ApiKeyScope[]> = {
  admin: ['admin'],
  write: ['admin', 'write'],
  read: ['admin', 'write', 'read'],
  ingest: ['admin', 'write', 'ingest'],
};

export function scopeAllows(granted: readonly ApiKeyScope[], required: ApiKeyScope): boolean {
  return SCOPES_SATISFYING[required].some((scope) => granted.includes(scope));
}
