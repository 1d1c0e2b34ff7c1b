import { ApiProperty } from '@nestjs/swagger';
import { ActorView, FieldChange } from './prompt.views';

export class ReleaseGateView {
  @ApiProperty({ example: 'bm_01jh8z6v9q3m2r7x5c4b1n0k8d' }) benchmarkId: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, example: { exact_match: 0.8 } })
  thresholds: Record<string, number>;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 3,
    description: "The version of the benchmark's dataset whose whole runs count; null on a gate set before gates named one (the dataset's current version counts)",
  })
  datasetVersion: number | null;
}

/** A named pointer to one version of a prompt (`production` → 7). */
export class PromptReleaseView {
  @ApiProperty({ example: 'production' }) name: string;
  @ApiProperty({ example: 2 }) version: number;
  @ApiProperty({ type: ReleaseGateView, nullable: true }) gate: ReleaseGateView | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: ActorView }) updatedBy: ActorView;
}

/** The releases of a prompt, by name; one page (a prompt has at most PROMPT_RELEASES_MAX). */
export class PromptReleaseListView {
  @ApiProperty({ type: [PromptReleaseView] }) data: PromptReleaseView[];
  @ApiProperty({ type: 'null', description: 'Always null: every release is on this page' }) nextCursor: null;
}

export class PromptDiffView {
  @ApiProperty({ example: 1 }) from: number;
  @ApiProperty({ example: 2 }) to: number;
  @ApiProperty({
    type: 'object',
    description: 'Each field that differs, with its value at `from` and at `to` (as in activity)',
    additionalProperties: { type: 'object', properties: { from: {}, to: {} }, required: ['from', 'to'] },
    example: { content: { from: 'old', to: 'new' } },
  })
  changes: Record<string, FieldChange>;
  @ApiProperty({ description: 'The content at `from` against the content at `to`, as a unified diff ("" when equal)' })
  contentDiff: string;
}

export class RenderedPromptView {
  @ApiProperty({ example: 2 }) version: number;
  @ApiProperty({ example: 'A slow dolly shot of a lighthouse at dawn' }) content: string;
  @ApiProperty({ type: [String], description: 'The placeholders filled, in order of first use' }) variables: string[];
}
