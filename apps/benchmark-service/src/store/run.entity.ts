import type { Runner, RunStatus, TaskPrompt } from '@cinetrace/contracts';
import { epochMs, nullableNumber } from '@cinetrace/persistence';
import type { ScorerSpec } from '@cinetrace/scorers';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { TargetSpec } from '../benchmarks/target-rules';

/** What every task of a run executes, fixed when the run starts. */
export interface RunPlan {
  target: TargetSpec;
  scorers: ScorerSpec[];
  prompt: TaskPrompt | null;
}

/** Per scorer, the sums the run's `scores` (mean, passRate) are computed from. */
export type ScoreTotals = Record<string, { sum: number; scored: number; passed: number }>;

@Entity('runs')
// One queued or running run per benchmark: NULLs (finished runs) never collide.
@Index('runs_active_benchmark', ['activeBenchmarkId'], { unique: true })
@Index('runs_benchmark_id', ['benchmarkId', 'id'])
@Index('runs_project_created', ['projectId', 'createdAt'])
@Index('runs_project_status', ['projectId', 'status'])
@Index('runs_benchmark_prompt', ['benchmarkId', 'promptId', 'promptVersion', 'status', 'id'])
export class Run {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ name: 'benchmark_id', type: 'varchar', length: 40 }) benchmarkId: string;
  @Column({ name: 'active_benchmark_id', type: 'varchar', length: 40, nullable: true }) activeBenchmarkId: string | null;
  @Column({ type: 'varchar', length: 16 }) status: RunStatus;
  @Column({ type: 'simple-json' }) experiment: Record<string, unknown>;
  @Column({ type: 'simple-json' }) runner: Runner;
  @Column({ type: 'simple-json' }) plan: RunPlan;
  /** The prompt the target rendered and at which version (also in `plan`), for a release's gate to find runs by. */
  @Column({ name: 'prompt_id', type: 'varchar', length: 40, nullable: true }) promptId: string | null;
  @Column({ name: 'prompt_version', type: 'integer', nullable: true }) promptVersion: number | null;
  @Column({ name: 'dataset_id', type: 'varchar', length: 40 }) datasetId: string;
  @Column({ name: 'dataset_version', type: 'integer' }) datasetVersion: number;
  @Column({ type: 'integer' }) total: number;
  @Column({ type: 'integer' }) pending: number;
  @Column({ type: 'integer' }) running: number;
  @Column({ type: 'integer' }) completed: number;
  @Column({ type: 'integer' }) failed: number;
  @Column({ type: 'integer' }) cancelled: number;
  /**
   * The item index the run has handed its tasks over through (-1: none yet). Fills take the
   * lowest pending tasks past it, in item order: a task is in flight while it is open at or below it.
   */
  @Column({ name: 'handed_over_through', type: 'integer', default: -1 }) handedOverThrough: number;
  @Column({ name: 'score_totals', type: 'simple-json' }) scoreTotals: ScoreTotals;
  @Column({ name: 'cost_usd', type: 'double precision', nullable: true, transformer: nullableNumber }) costUsd: number | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'started_at', type: 'bigint', nullable: true, transformer: epochMs }) startedAt: number | null;
  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: epochMs }) finishedAt: number | null;
}
