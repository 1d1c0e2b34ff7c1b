import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('datasets')
@Index('datasets_project_id', ['projectId', 'id'])
@Index('datasets_project_name_id', ['projectId', 'name', 'id'])
export class Dataset {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text' }) description: string;
  @Column({ name: 'item_count', type: 'integer' }) itemCount: number;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
}
