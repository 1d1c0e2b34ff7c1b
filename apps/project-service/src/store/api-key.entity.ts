import type { ApiKeyScope } from '@cinetrace/contracts';
import { epochMs, jsonText } from '@cinetrace/persistence';
import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { Organization } from './organization.entity';

/** A JSON value that is SQL NULL when null (jsonText reads NULL back as undefined). */
const nullableJsonText = {
  to: (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value)),
  from: (text: string | null): unknown => (text === null ? null : JSON.parse(text)),
};

/** An organization API key, stored as its SHA-256 only. */
@Entity('api_keys')
@Unique('api_keys_key_hash_key', ['keyHash'])
@Index('api_keys_org_id', ['orgId', 'id'])
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @ForeignKey(() => Organization, { name: 'api_keys_org_id_fkey' })
  @Column({ name: 'org_id', type: 'varchar', length: 40 })
  orgId: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ name: 'key_hash', type: 'varchar', length: 64 }) keyHash: string;
  /** The key's first characters and an ellipsis (`ct_AbCd…`): the list's `prefix` without the ellipsis. */
  @Column({ type: 'varchar', length: 20 }) preview: string;
  @Column({ type: 'text', default: '["admin"]', transformer: jsonText }) scopes: ApiKeyScope[];
  /** The projects the key is restricted to; null: every project of the organization. */
  @Column({ name: 'project_ids', type: 'text', nullable: true, transformer: nullableJsonText }) projectIds: string[] | null;
  /** The bootstrap key: may create organizations. */
  @Column({ name: 'instance_admin', type: 'boolean', default: false }) instanceAdmin: boolean;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  /** Written at most once a minute per key (see AuthService). */
  @Column({ name: 'last_used_at', type: 'bigint', nullable: true, transformer: epochMs }) lastUsedAt: number | null;
  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: epochMs }) revokedAt: number | null;
}
