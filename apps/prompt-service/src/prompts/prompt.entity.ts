import type { PromptType } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('prompts')
export class Prompt {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ type: 'varchar', length: 100 }) identifier: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text' }) content: string;
  @Column({ type: 'varchar', length: 32 }) type: PromptType;
  @Column({ type: 'simple-json' }) labels: string[];
  @Column({ type: 'simple-json' }) metadata: Record<string, unknown>;
  @Column({ type: 'simple-json' }) variables: string[];
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
  @Column({ name: 'deleted_at', type: 'bigint', nullable: true, transformer: epochMs }) deletedAt: number | null;
}
