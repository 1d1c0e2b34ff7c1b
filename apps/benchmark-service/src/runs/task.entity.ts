import type { TaskScore, TaskStatus } from '@cinetrace/contracts';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Any JSON value as text; SQL NULL is "absent" (an item without `expected`, a task without output yet). */
const json = {
  to: (value: unknown) => (value === undefined ? null : JSON.stringify(value)),
  from: (text: string | null) => (text === null ? undefined : JSON.parse(text)),
};
const nullableFloat = { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

@Entity('tasks')
export class Task {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'run_id', type: 'varchar', length: 40 }) runId: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ name: 'item_id', type: 'varchar', length: 40 }) itemId: string;
  @Column({ name: 'item_index', type: 'integer' }) itemIndex: number;
  @Column({ type: 'varchar', length: 16 }) status: TaskStatus;
  @Column({ type: 'integer' }) attempts: number;
  @Column({ type: 'text', transformer: json }) input: unknown;
  @Column({ type: 'text', nullable: true, transformer: json }) expected: unknown;
  @Column({ type: 'simple-json' }) metadata: Record<string, unknown>;
  @Column({ type: 'text', nullable: true, transformer: json }) output: unknown;
  @Column({ type: 'simple-json' }) scores: TaskScore[];
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ type: 'text', nullable: true, transformer: json }) usage: Record<string, number> | undefined;
  @Column({ name: 'cost_usd', type: 'double precision', nullable: true, transformer: nullableFloat }) costUsd: number | null;
  @Column({ name: 'trace_id', type: 'varchar', length: 40 }) traceId: string;
  /** When the task was handed to the executors; NULL while it waits for a slot of the run's concurrency. */
  @Column({ name: 'dispatched_at', type: 'bigint', nullable: true, transformer: epochMs }) dispatchedAt: number | null;
  @Column({ name: 'started_at', type: 'bigint', nullable: true, transformer: epochMs }) startedAt: number | null;
  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: epochMs }) finishedAt: number | null;
  @Column({ name: 'duration_ms', type: 'bigint', nullable: true, transformer: epochMs }) durationMs: number | null;
}
