import { hashApiKey, keyPreview } from '@cinetrace/auth';
import { API_KEY_SCOPES, ApiKeyScope, ApiKeyView, NewKeyDigest, StoredApiKeyView } from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { toIso } from '@cinetrace/persistence';
import { ApiKey } from '../store/api-key.entity';

export interface NewApiKey {
  orgId: string;
  name: string;
  scopes: readonly ApiKeyScope[];
  projectIds?: string[] | null;
  instanceAdmin?: boolean;
  /** The key's digest: from the gateway, which generated the key (see NewKeyDigest). */
  credential: NewKeyDigest;
}

/** The digest of a key this service holds itself (BOOTSTRAP_API_KEY, or one it generated at first start). */
export const digestOf = (key: string): NewKeyDigest => ({ keyHash: hashApiKey(key), preview: keyPreview(key) });

/** A new key's row: its hash, never the key. */
export function newApiKeyRow(spec: NewApiKey): ApiKey {
  // Checked where it is consumed too: a malformed digest would make a key nobody can use.
  if (!/^[0-9a-f]{64}$/.test(spec.credential.keyHash) || spec.credential.preview.length > 20) {
    throw new Error('Malformed API key digest');
  }
  return {
    id: newId('key'),
    orgId: spec.orgId,
    name: spec.name,
    keyHash: spec.credential.keyHash,
    preview: spec.credential.preview,
    // Canonical order, whatever order the client sent them in.
    scopes: API_KEY_SCOPES.filter((scope) => spec.scopes.includes(scope)),
    projectIds: spec.projectIds ?? null,
    instanceAdmin: spec.instanceAdmin ?? false,
    createdAt: Date.now(),
    lastUsedAt: null,
    revokedAt: null,
  };
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

/** A created key as answered over the bus: the gateway adds the key, which it alone has. */
export function toStoredApiKeyView(row: ApiKey): StoredApiKeyView {
  const { lastUsedAt: _unused, ...view } = toApiKeyView(row);
  return view;
}
