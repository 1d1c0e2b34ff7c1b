import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { LessThanOrEqual } from 'typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';

/** Fails on the primary key when the scope already holds the key. */
export const insertRecord = (manager: EntityManager, record: IdempotencyRecord): Promise<void> => insertRows(manager, IdempotencyRecord, record);

export const findRecord = (manager: EntityManager, scope: string, key: string): Promise<IdempotencyRecord | null> => manager.findOneBy(IdempotencyRecord, { scope, key });

/** The first answer, on the pending claim of the key. */
export async function completeRecord(
  manager: EntityManager,
  scope: string,
  key: string,
  answer: Pick<IdempotencyRecord, 'statusCode' | 'responseBody' | 'location' | 'etag'>,
): Promise<void> {
  await manager.update(IdempotencyRecord, { scope, key, state: 'pending' }, { state: 'done', ...answer });
}

/** Frees a key whose request failed. */
export async function deletePendingRecord(manager: EntityManager, scope: string, key: string): Promise<void> {
  await manager.delete(IdempotencyRecord, { scope, key, state: 'pending' });
}

/** Takes a pending claim over if it is still the one made at `createdAt`; false when another request took it first. */
export async function renewPendingRecord(manager: EntityManager, stale: Pick<IdempotencyRecord, 'scope' | 'key' | 'createdAt'>, now: number): Promise<boolean> {
  const result = await manager.update(IdempotencyRecord, { scope: stale.scope, key: stale.key, state: 'pending', createdAt: stale.createdAt }, { createdAt: now });
  return (result.affected ?? 0) === 1;
}

/** Every record expired by `now`; only the key's when `of` is given. */
export async function deleteExpiredRecords(manager: EntityManager, now: number, of?: { scope: string; key: string }): Promise<void> {
  await manager.delete(IdempotencyRecord, { ...of, expiresAt: LessThanOrEqual(now) });
}
