import type { BenchmarkStatus, Runner } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import type { ScorerSpec } from '@cinetrace/scorers';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { TargetSpec } from '../benchmarks/target-rules';

@Entity('benchmarks')
@Index('benchmarks_project_id', ['projectId', 'id'])
@Index('benchmarks_project_status_id', ['projectId', 'status', 'id'])
@Index('benchmarks_dataset', ['datasetId'])
export class Benchmark {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text' }) description: string;
  @Column({ name: 'dataset_id', type: 'varchar', length: 40 }) datasetId: string;
  @Column({ type: 'simple-json' }) scorers: ScorerSpec[];
  @Column({ type: 'simple-json' }) target: TargetSpec;
  @Column({ type: 'simple-json' }) runner: Runner;
  @Column({ type: 'varchar', length: 16 }) status: BenchmarkStatus;
  @Column({ name: 'last_run_id', type: 'varchar', length: 40, nullable: true }) lastRunId: string | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
  @Column({ name: 'deleted_at', type: 'bigint', nullable: true, transformer: epochMs }) deletedAt: number | null;
}
