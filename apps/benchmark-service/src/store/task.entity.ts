import type { TaskScore, TaskStatus } from '@cinetrace/contracts';
import { epochMs, jsonText, nullableNumber } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** JSON columns read SQL NULL as absent: an item without `expected`, a task without output yet. */
@Entity('tasks')
@Index('tasks_run_item', ['runId', 'itemIndex'], { unique: true })
@Index('tasks_run_status_item', ['runId', 'status', 'itemIndex'])
export class Task {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'run_id', type: 'varchar', length: 40 }) runId: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ name: 'item_id', type: 'varchar', length: 40 }) itemId: string;
  @Column({ name: 'item_index', type: 'integer' }) itemIndex: number;
  @Column({ type: 'varchar', length: 16 }) status: TaskStatus;
  @Column({ type: 'integer' }) attempts: number;
  @Column({ type: 'text', transformer: jsonText }) input: unknown;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) expected: unknown;
  @Column({ type: 'simple-json' }) metadata: Record<string, unknown>;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) output: unknown;
  @Column({ type: 'simple-json' }) scores: TaskScore[];
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) usage: Record<string, number> | undefined;
  @Column({ name: 'cost_usd', type: 'double precision', nullable: true, transformer: nullableNumber }) costUsd: number | null;
  @Column({ name: 'trace_id', type: 'varchar', length: 40 }) traceId: string;
  @Column({ name: 'started_at', type: 'bigint', nullable: true, transformer: epochMs }) startedAt: number | null;
  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: epochMs }) finishedAt: number | null;
  @Column({ name: 'duration_ms', type: 'bigint', nullable: true, transformer: epochMs }) durationMs: number | null;
}
