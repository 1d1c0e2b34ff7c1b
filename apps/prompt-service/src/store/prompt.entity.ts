import type { PromptType } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('prompts')
// Identifiers are unique among live prompts only, so two concurrent creates cannot both take one.
@Index('prompts_live_identifier', ['projectId', 'identifier'], { unique: true, where: 'deleted_at IS NULL' })
@Index('prompts_project_id', ['projectId', 'id'])
@Index('prompts_project_type_id', ['projectId', 'type', 'id'])
// Deleted prompts too: which prompt last held an identifier (a gate reserves it).
@Index('prompts_project_identifier_id', ['projectId', 'identifier', 'id'])
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
