import { ApiAnyJson } from '../openapi/any-json';
import { ApiProperty } from '@nestjs/swagger';
import { TASK_STATUSES, TaskStatus } from './task.messages';
import { BENCHMARK_STATUSES, RunCountsView, RunStatus } from './benchmark.views';

/** The 202 of a start. */
export class RunStartedView {
  @ApiProperty({ example: 'run_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() benchmarkId: string;
  @ApiProperty({ enum: ['queued'] }) status: 'queued';
  @ApiProperty() taskCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class TaskScoreView {
  @ApiProperty() scorer: string;
  @ApiProperty({ type: Number, nullable: true }) score: number | null;
  @ApiProperty({ type: Boolean, nullable: true }) passed: boolean | null;
  @ApiAnyJson() details: unknown;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
}

export class TaskView {
  @ApiProperty({ example: 'task_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() runId: string;
  @ApiProperty() itemId: string;
  @ApiProperty() itemIndex: number;
  @ApiProperty({ enum: TASK_STATUSES }) status: TaskStatus;
  @ApiProperty() attempts: number;
  @ApiAnyJson() output: unknown;
  @ApiProperty({ type: [TaskScoreView] }) scores: TaskScoreView[];
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, nullable: true }) usage: Record<string, number> | null;
  @ApiProperty({ type: Number, nullable: true }) costUsd: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The trace this execution is recorded as' }) traceId: string | null;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) startedAt: string | null;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) finishedAt: string | null;
  @ApiProperty({ type: Number, nullable: true }) durationMs: number | null;
}

/** The annotations on the media a run's task outputs name, counted when the summary is read. */
export class RunAnnotationsView {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Annotations on those media, all labels included', example: 7 })
  total: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 1 },
    description: 'Annotations by label: the 100 most frequent labels (ties by label)',
    example: { flicker: 4, 'black frames': 3 },
  })
  labels: Record<string, number>;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Labels left out of `labels` (beyond the 100 most frequent); their annotations are in `total`' })
  labelsOmitted: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Media the outputs name beyond the 10,000 counted (by id), whose annotations are not in the figures' })
  mediaOmitted: number;
}

export class RunSummaryView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: BENCHMARK_STATUSES.filter((s) => s !== 'idle') }) status: RunStatus;
  @ApiProperty({ type: RunCountsView }) counts: RunCountsView;
  @ApiProperty({
    type: RunAnnotationsView,
    nullable: true,
    description: "Annotations on the project's media the run's task outputs name (`{ mediaId }` anywhere in an output); null when media-service did not answer in time",
  })
  annotations: RunAnnotationsView | null;
}

/** A page of tasks and, with it, where their run stands (null when the benchmark never ran). */
export interface TaskPage {
  items: TaskView[];
  nextKey: number | null;
  summary: RunSummaryView | null;
}
