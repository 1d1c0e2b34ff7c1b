import { Entity, Index, PrimaryColumn } from 'typeorm';

/** One label of a prompt's current version, for the indexed `label` filter. */
@Entity('prompt_labels')
@Index('prompt_labels_label', ['label', 'promptId'])
export class PromptLabel {
  @PrimaryColumn({ name: 'prompt_id', type: 'varchar', length: 40 }) promptId: string;
  @PrimaryColumn({ type: 'varchar', length: 50 }) label: string;
}
