import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { isUniqueViolation } from '@cinetrace/persistence';
import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdempotencyRecord } from '../store/idempotency-record.entity';
import { completeRecord, deleteExpiredRecords, deletePendingRecord, findRecord, insertRecord, renewPendingRecord } from '../store/idempotency-records.queries';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A pending claim older than this belongs to a request that died; a retry may take it over. */
const PENDING_STALE_MS = 60_000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The headers of a first answer that a replay carries again. */
export interface StoredHeaders {
  location: string | null;
  etag: string | null;
}

export type Claim = { kind: 'fresh' } | ({ kind: 'replay'; statusCode: number; body: unknown } & StoredHeaders);

/**
 * Durable idempotency records (the gateway's own store). A key is claimed before the
 * request runs, so two concurrent requests with one key cannot both do the work.
 */
@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private sweeper?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  async claim(scope: string, key: string, fingerprint: string, now = Date.now()): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await insertRecord(this.dataSource.manager, {
          scope,
          key,
          fingerprint,
          state: 'pending',
          statusCode: null,
          responseBody: null,
          location: null,
          etag: null,
          createdAt: now,
          expiresAt: now + IDEMPOTENCY_TTL_MS,
        });
        return { kind: 'fresh' };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      const existing = await findRecord(this.dataSource.manager, scope, key);
      if (!existing) continue;
      if (existing.expiresAt <= now) {
        await deleteExpiredRecords(this.dataSource.manager, now, { scope, key });
        continue;
      }
      if (existing.fingerprint !== fingerprint) {
        throw new DomainError(ErrorCode.IdempotencyKeyReused, 'This Idempotency-Key was used with a different request; use a new key for a new request');
      }
      if (existing.state === 'done') {
        return {
          kind: 'replay',
          statusCode: existing.statusCode!,
          body: JSON.parse(existing.responseBody!),
          location: existing.location,
          etag: existing.etag,
        };
      }
      if (now - existing.createdAt > PENDING_STALE_MS && (await this.takeOver(existing, now))) return { kind: 'fresh' };
      throw new DomainError(ErrorCode.Conflict, 'A request with this Idempotency-Key is still in progress; retry shortly');
    }
    throw new DomainError(ErrorCode.Conflict, 'Could not claim this Idempotency-Key; retry shortly');
  }

  async complete(scope: string, key: string, statusCode: number, body: unknown, headers: StoredHeaders): Promise<void> {
    await completeRecord(this.dataSource.manager, scope, key, { statusCode, responseBody: JSON.stringify(body ?? null), location: headers.location, etag: headers.etag });
  }

  /** The request failed: free the key so the client can retry it. */
  async release(scope: string, key: string): Promise<void> {
    await deletePendingRecord(this.dataSource.manager, scope, key);
  }

  private async takeOver(stale: IdempotencyRecord, now: number): Promise<boolean> {
    return renewPendingRecord(this.dataSource.manager, stale, now);
  }

  private async sweep(now = Date.now()): Promise<void> {
    await deleteExpiredRecords(this.dataSource.manager, now);
  }
}
