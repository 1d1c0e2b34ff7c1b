import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { IsNull, LessThan, Raw } from 'typeorm';
import { ApiKey } from './api-key.entity';

export const insertApiKey = (manager: EntityManager, key: ApiKey): Promise<void> => insertRows(manager, ApiKey, key);

/** The key with this hash, revoked or not. */
export const findKeyByHash = (manager: EntityManager, keyHash: string): Promise<ApiKey | null> => manager.findOneBy(ApiKey, { keyHash });

/** The live (not revoked) key with this hash. */
export const findLiveKeyByHash = (manager: EntityManager, keyHash: string): Promise<ApiKey | null> => manager.findOneBy(ApiKey, { keyHash, revokedAt: IsNull() });

export const findLiveKey = (manager: EntityManager, orgId: string, id: string): Promise<ApiKey | null> => manager.findOneBy(ApiKey, { id, orgId, revokedAt: IsNull() });

/** Every live key of the organization. */
export const liveKeysOf = (manager: EntityManager, orgId: string): Promise<ApiKey[]> => manager.findBy(ApiKey, { orgId, revokedAt: IsNull() });

/** The organization's live keys, newest first, `rows` of them from after the key `after`. */
export const listLiveKeys = (manager: EntityManager, orgId: string, after: string | undefined, rows: number): Promise<ApiKey[]> =>
  manager.find(ApiKey, { where: { orgId, revokedAt: IsNull(), ...(after !== undefined ? { id: LessThan(after) } : {}) }, order: { id: 'DESC' }, take: rows });

export async function revokeKey(manager: EntityManager, id: string, now: number): Promise<void> {
  await manager.update(ApiKey, { id }, { revokedAt: now });
}

export async function unrevokeKey(manager: EntityManager, id: string): Promise<void> {
  await manager.update(ApiKey, { id }, { revokedAt: null });
}

/** Records a use at `now` unless one was recorded after `since`: concurrent writers write once between them. */
export async function noteKeyUsed(manager: EntityManager, id: string, now: number, since: number): Promise<void> {
  await manager.update(ApiKey, { id, lastUsedAt: Raw((column) => `(${column} IS NULL OR ${column} < :since)`, { since }) }, { lastUsedAt: now });
}
