import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization } from './organization.entity';

@Entity('projects')
@Index('projects_org_key', ['orgId', 'key'], { unique: true })
@Index('projects_org_id', ['orgId', 'id'])
@Index('projects_org_name_id', ['orgId', 'name', 'id'])
export class Project {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @ForeignKey(() => Organization, { name: 'projects_org_id_fkey' })
  @Column({ name: 'org_id', type: 'varchar', length: 40 })
  orgId: string;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'text', default: '' }) description: string;
  @Column({ name: 'project_key', type: 'varchar', length: 48 }) key: string;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
}
