import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';

export const BENCHMARK_STATUSES = ['idle', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type BenchmarkStatus = (typeof BENCHMARK_STATUSES)[number];
export type RunStatus = Exclude<BenchmarkStatus, 'idle'>;

export class Runner {
  @ApiProperty({ minimum: 1, maximum: 64 }) concurrency: number;
  @ApiProperty({ minimum: 1, maximum: 10 }) maxAttempts: number;
  @ApiProperty({ minimum: 1000, maximum: 600_000 }) timeoutMs: number;
}

export class RunCountsView {
  @ApiProperty() total: number;
  @ApiProperty() pending: number;
  @ApiProperty() running: number;
  @ApiProperty() completed: number;
  @ApiProperty() failed: number;
  @ApiProperty() cancelled: number;
}

/** One scorer's figures over a run's scored tasks; null until one of its scores is in. */
export class ScoreSummaryView {
  @ApiProperty({ type: Number, nullable: true, example: 0.82 }) mean: number | null;
  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1, example: 0.75 }) passRate: number | null;
}

/** The prompt a run's target rendered, as resolved when the run started. */
export class RunPromptView {
  @ApiProperty({ example: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty({ example: 2, description: 'The version rendered (what a release gate checks runs by)' }) version: number;
  @ApiProperty({ type: String, nullable: true, example: 'staging', description: 'The release the target named, if it named one (resolved to `version` at start)' })
  release: string | null;
}

@ApiExtraModels(ScoreSummaryView)
export class RunView {
  @ApiProperty({ example: 'run_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() benchmarkId: string;
  @ApiProperty({ enum: BENCHMARK_STATUSES.filter((s) => s !== 'idle') }) status: RunStatus;
  @ApiProperty({ type: 'object', additionalProperties: true }) experiment: Record<string, unknown>;
  @ApiProperty({ type: Runner }) runner: Runner;
  @ApiProperty() datasetVersion: number;
  @ApiProperty({ type: RunPromptView, nullable: true, description: 'The prompt rendered, when the target names one' }) prompt: RunPromptView | null;
  @ApiProperty({ type: RunCountsView }) counts: RunCountsView;
  @ApiProperty({
    type: 'object',
    description: "Each scorer's figures, by scorer name",
    additionalProperties: { $ref: getSchemaPath(ScoreSummaryView) },
    example: { exact_match: { mean: 0.82, passRate: 0.75 } },
  })
  scores: Record<string, ScoreSummaryView>;
  @ApiProperty({ type: Number, nullable: true }) costUsd: number | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) startedAt: string | null;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) finishedAt: string | null;
}

export class BenchmarkView {
  @ApiProperty({ example: 'bm_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() projectId: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() datasetId: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) scorers: { name: string; type: string; config: Record<string, unknown> }[];
  @ApiProperty({ type: 'object', additionalProperties: true }) target: Record<string, unknown>;
  @ApiProperty({ type: Runner }) runner: Runner;
  @ApiProperty({ enum: BENCHMARK_STATUSES }) status: BenchmarkStatus;
  @ApiProperty({ type: RunView, nullable: true }) lastRun: RunView | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
