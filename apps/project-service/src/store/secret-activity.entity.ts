import type { SecretAction } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The audit trail of secrets: who created, rotated or deleted which, when. Never a value. Kept after the secret is gone. */
@Entity('secret_activity')
@Index('secret_activity_secret', ['orgId', 'secretId', 'id'])
export class SecretActivity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'org_id', type: 'varchar', length: 40 }) orgId: string;
  @Column({ name: 'secret_id', type: 'varchar', length: 40 }) secretId: string;
  @Column({ name: 'secret_name', type: 'varchar', length: 100 }) secretName: string;
  @Column({ type: 'varchar', length: 16 }) action: SecretAction;
  @Column({ name: 'api_key_id', type: 'varchar', length: 40 }) apiKeyId: string;
  @Column({ name: 'allowed_hosts', type: 'simple-json' }) allowedHosts: string[];
  @Column({ type: 'bigint', transformer: epochMs }) at: number;
}
