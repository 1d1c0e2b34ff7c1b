import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** JSON values kept as text: `expected` may be any JSON, `null` included, or absent (SQL NULL). */
const json = {
  to: (value: unknown) => (value === undefined ? null : JSON.stringify(value)),
  from: (text: string | null) => (text === null ? undefined : JSON.parse(text)),
};

@Entity('dataset_items')
export class DatasetItem {
  @PrimaryColumn({ name: 'dataset_id', type: 'varchar', length: 40 }) datasetId: string;
  @PrimaryColumn({ name: 'idx', type: 'integer' }) index: number;
  @Column({ type: 'varchar', length: 40 }) id: string;
  @Column({ type: 'text', transformer: json }) input: unknown;
  @Column({ type: 'text', nullable: true, transformer: json }) expected: unknown;
  @Column({ type: 'simple-json' }) metadata: Record<string, unknown>;
  /** The dataset version this item arrived with: a run of version v uses the items with version ≤ v. */
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
}
