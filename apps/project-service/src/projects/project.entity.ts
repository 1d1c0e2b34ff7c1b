import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('projects')
export class Project {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'org_id', type: 'varchar', length: 40 }) orgId: string;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'text' }) description: string;
  @Column({ name: 'project_key', type: 'varchar', length: 48 }) key: string;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
}
