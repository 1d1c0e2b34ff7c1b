import type { FieldChange, PromptAction } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('prompt_activity')
@Index('prompt_activity_prompt_id', ['promptId', 'id'])
export class PromptActivity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'prompt_id', type: 'varchar', length: 40 }) promptId: string;
  @Column({ type: 'varchar', length: 16 }) action: PromptAction;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'actor_type', type: 'varchar', length: 16 }) actorType: 'api_key';
  @Column({ name: 'actor_id', type: 'varchar', length: 40 }) actorId: string;
  @Column({ type: 'bigint', transformer: epochMs }) at: number;
  @Column({ type: 'simple-json' }) changes: Record<string, FieldChange>;
}
