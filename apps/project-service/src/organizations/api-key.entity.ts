import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An organization API key, stored as its SHA-256 only. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'org_id', type: 'varchar', length: 40 }) orgId: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ name: 'key_hash', type: 'varchar', length: 64 }) keyHash: string;
  @Column({ type: 'varchar', length: 20 }) preview: string;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: epochMs }) revokedAt: number | null;
}
