import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization } from './organization.entity';

/** An organization's secret: its value only encrypted (AES-256-GCM, libs/secret-crypto). */
@Entity('secrets')
@Index('secrets_org_name', ['orgId', 'name'], { unique: true })
@Index('secrets_org_id', ['orgId', 'id'])
export class Secret {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @ForeignKey(() => Organization, { name: 'secrets_org_id_fkey' })
  @Column({ name: 'org_id', type: 'varchar', length: 40 })
  orgId: string;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** Which key encrypted the value: a key rotation re-encrypts the rows of the old one. */
  @Column({ name: 'key_id', type: 'varchar', length: 40 }) keyId: string;
  @Column({ type: 'varchar', length: 40 }) iv: string;
  @Column({ type: 'varchar', length: 40 }) tag: string;
  @Column({ type: 'text' }) ciphertext: string;
  @Column({ name: 'allowed_hosts', type: 'simple-json' }) allowedHosts: string[];
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
}
