import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'pending' | 'done';

/** The first answer to a POST sent with an Idempotency-Key, kept 24 h for replays. */
@Entity('idempotency_records')
@Index('idempotency_records_expires_at', ['expiresAt'])
export class IdempotencyRecord {
  /** `<orgId>:<projectId or ->`: keys are the caller's own namespace. */
  @PrimaryColumn({ type: 'varchar', length: 100 }) scope: string;
  @PrimaryColumn({ name: 'idem_key', type: 'varchar', length: 255 }) key: string;
  /** SHA-256 of method, path and canonical body: a different body under the same key is refused. */
  @Column({ type: 'varchar', length: 64 }) fingerprint: string;
  @Column({ type: 'varchar', length: 10 }) state: IdempotencyState;
  @Column({ name: 'status_code', type: 'integer', nullable: true }) statusCode: number | null;
  @Column({ name: 'response_body', type: 'text', nullable: true }) responseBody: string | null;
  @Column({ type: 'text', nullable: true }) location: string | null;
  /** The answer's ETag (a created prompt's version), replayed with it. */
  @Column({ type: 'text', nullable: true }) etag: string | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMs }) expiresAt: number;
}
