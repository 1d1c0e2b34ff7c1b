import { epochMs, jsonText } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** `expected` may be any JSON, `null` included, or absent (SQL NULL). */
@Entity('dataset_items')
@Index('dataset_items_id', ['id'], { unique: true })
export class DatasetItem {
  @PrimaryColumn({ name: 'dataset_id', type: 'varchar', length: 40 }) datasetId: string;
  @PrimaryColumn({ name: 'idx', type: 'integer' }) index: number;
  @Column({ type: 'varchar', length: 40 }) id: string;
  @Column({ type: 'text', transformer: jsonText }) input: unknown;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) expected: unknown;
  @Column({ type: 'simple-json' }) metadata: Record<string, unknown>;
  /** The dataset version this item arrived with: a run of version v uses the items with version ≤ v. */
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
}
