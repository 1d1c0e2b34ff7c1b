import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An immutable snapshot of a prompt's editable fields; written once, never updated. */
@Entity('prompt_versions')
export class PromptVersion {
  @PrimaryColumn({ name: 'prompt_id', type: 'varchar', length: 40 }) promptId: string;
  @PrimaryColumn({ type: 'integer' }) version: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text' }) content: string;
  @Column({ type: 'simple-json' }) labels: string[];
  @Column({ type: 'simple-json' }) metadata: Record<string, unknown>;
  @Column({ type: 'simple-json' }) variables: string[];
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
}
