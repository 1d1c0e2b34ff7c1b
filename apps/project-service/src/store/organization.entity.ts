import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

@Entity('organizations')
@Unique('organizations_slug_key', ['slug'])
export class Organization {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  /** `default` for the organization made at first start; unique, which keeps two replicas from both making one. */
  @Column({ type: 'varchar', length: 100 }) slug: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
}
