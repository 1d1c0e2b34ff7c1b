import type { ReleaseGateView } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A gate as stored: `datasetVersion` is absent on gates set before gates named one. */
export type StoredGate = Omit<ReleaseGateView, 'datasetVersion'> & { datasetVersion?: number | null };

/** A release of a prompt: its name points at one version; `revision` is what moves compare-and-set on. */
@Entity('prompt_releases')
export class PromptRelease {
  @PrimaryColumn({ name: 'prompt_id', type: 'varchar', length: 40 }) promptId: string;
  @PrimaryColumn({ type: 'varchar', length: 50 }) name: string;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'simple-json', nullable: true }) gate: StoredGate | null;
  @Column({ type: 'integer' }) revision: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
  @Column({ name: 'updated_by', type: 'varchar', length: 40 }) updatedBy: string;
}
