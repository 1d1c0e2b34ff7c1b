import { generateApiKey, hashApiKey, keyPreview } from '@cinetrace/auth';
import { API_KEY_SCOPES, ApiKeyScope, ApiKeyView, CreatedApiKeyView } from '@cinetrace/contracts';
import { newId, toIso } from '@cinetrace/persistence';
import { ApiKey } from './api-key.entity';

export interface NewApiKey {
  orgId: string;
  name: string;
  scopes: readonly ApiKeyScope[];
  projectIds?: string[] | null;
  instanceAdmin?: boolean;
  /** A key chosen by the operator (BOOTSTRAP_API_KEY); generated when omitted. */
  key?: string;
}

/** A new key's row (hash only) and the key itself, which the caller shows once. */
export function newApiKeyRow(spec: NewApiKey): { row: ApiKey; key: string } {
  const key = spec.key ?? generateApiKey();
  const row: ApiKey = {
    id: newId('key'),
    orgId: spec.orgId,
    name: spec.name,
    keyHash: hashApiKey(key),
    preview: keyPreview(key),
    // Canonical order, whatever order the client sent them in.
    scopes: API_KEY_SCOPES.filter((scope) => spec.scopes.includes(scope)),
    projectIds: spec.projectIds ?? null,
    instanceAdmin: spec.instanceAdmin ?? false,
    createdAt: Date.now(),
    lastUsedAt: null,
    revokedAt: null,
  };
  return { row, key };
}

export function toApiKeyView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    projectIds: row.projectIds,
    prefix: row.preview.replace(/…$/, ''),
    createdAt: toIso(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : toIso(row.lastUsedAt),
  };
}

export function toCreatedApiKeyView(row: ApiKey, key: string): CreatedApiKeyView {
  const { lastUsedAt: _unused, ...view } = toApiKeyView(row);
  return { ...view, key };
}
