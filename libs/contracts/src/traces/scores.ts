import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';

/**
 * Scores (API.md, "Scores"): what a trace, or one of its spans, was worth. trace-ingest stores
 * them beside the traces they judge and validates every write; these are the rules it checks
 * and the gateway's OpenAPI document describes.
 */
export const SCORE_DATA_TYPES = ['numeric', 'boolean', 'categorical'] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

/** Who wrote a score: a client (`api`), a person (`annotation`), an online evaluator, a benchmark task's scorer. */
export const SCORE_SOURCES = ['api', 'annotation', 'evaluator', 'benchmark'] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];

export const SCORE_LIMITS = {
  /** A score's or a config's name. */
  nameLength: 100,
  comment: 5000,
  author: 200,
  /** A config's description. */
  description: 1000,
  /** Scores in one batch. */
  batch: 1000,
  /** A categorical config's categories, and a category label's length. */
  categories: 100,
  categoryLabel: 100,
  /** Configs a project may hold (archived ones included). */
  configs: 1000,
} as const;

/** A score as answered. `value` is null only for a categorical score given by its label alone, with no config to number it. */
export class ScoreView {
  @ApiProperty({ example: 'sc_01jh8z6v9q3m2r7x5c4b1n0k8d', description: 'Chosen by the client (as trace ids) or `sc_…`; unique in the project' }) id: string;
  @ApiProperty({ description: 'The trace judged; it need not be stored yet' }) traceId: string;
  @ApiProperty({ type: String, nullable: true, description: 'The span judged; null for the whole trace' }) spanId: string | null;
  @ApiProperty({ minLength: 1, maxLength: SCORE_LIMITS.nameLength }) name: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The number; 1 or 0 for a boolean; the category’s number for a categorical (null without one)' })
  value: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The category label (categorical), `true` or `false` (boolean); null for a numeric score' })
  stringValue: string | null;
  @ApiProperty({ enum: SCORE_DATA_TYPES }) dataType: ScoreDataType;
  @ApiProperty({ enum: SCORE_SOURCES }) source: ScoreSource;
  @ApiProperty({ type: String, nullable: true, maxLength: SCORE_LIMITS.comment }) comment: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The score config the value was checked against' }) configId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The online evaluator that wrote it (source `evaluator`)' }) evaluatorId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Who wrote it: as sent, else the API key that wrote it; null for benchmark scores' }) author: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ScoreCategoryView {
  @ApiProperty({ minLength: 1, maxLength: SCORE_LIMITS.categoryLabel }) label: string;
  @ApiProperty() value: number;
}

export class ScoreConfigView {
  @ApiProperty({ example: 'scfg_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty({ minLength: 1, maxLength: SCORE_LIMITS.nameLength, description: 'Unique in the project' }) name: string;
  @ApiProperty({ enum: SCORE_DATA_TYPES }) dataType: ScoreDataType;
  @ApiProperty({ type: Number, nullable: true, description: 'Numeric: the least value allowed (inclusive); null: no bound' }) min: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Numeric: the greatest value allowed (inclusive); null: no bound' }) max: number | null;
  @ApiProperty({ type: [ScoreCategoryView], nullable: true, description: 'Categorical: the categories a value must be one of' })
  categories: ScoreCategoryView[] | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ description: 'An archived config no longer checks scores named after it (scores naming it by configId still are)' }) archived: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ScoreBatchItemResult {
  @ApiProperty() index: number;
  @ApiProperty({ type: String, nullable: true }) id: string | null;
  @ApiProperty({ enum: ['accepted', 'rejected'] }) result: 'accepted' | 'rejected';
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: 'Why it was rejected, field by field' }) errors?: { path: string; message: string }[];
}

export class ScoreBatchView {
  @ApiProperty() accepted: number;
  @ApiProperty() rejected: number;
  @ApiProperty({ type: [ScoreBatchItemResult] }) items: ScoreBatchItemResult[];
}

/**
 * A score on the trace stream (TraceIngestMessage.scores): a benchmark task's scorer result,
 * stored with its trace in the same transaction. The sender built it, so it is not checked
 * against the project's configs (docs/decisions, "Scores").
 */
export interface StreamScore {
  id: string;
  spanId: string | null;
  name: string;
  value: number | null;
  stringValue: string | null;
  dataType: ScoreDataType;
  source: ScoreSource;
  comment: string | null;
  evaluatorId: string | null;
  createdAt: number;
}

export interface ScoreCreateRequest {
  ctx: ProjectContext;
  /** Checked by trace-ingest, field by field. */
  input: unknown;
}
/** `created`: false when a score of that client id and the same body was stored already (200). */
export interface ScoreCreateReply {
  score: ScoreView;
  created: boolean;
}

export interface ScoreBatchRequest {
  ctx: ProjectContext;
  /** The items of `scores`, each checked on its own. */
  items: unknown[];
}

export interface ScoreListFilters {
  traceId?: string;
  spanId?: string;
  name?: string;
  source?: string;
  configId?: string;
  /** ISO-8601, as normalised by the gateway: createdAt >= from, < to. */
  from?: string;
  to?: string;
}

/** Keyset position of the score list: newest createdAt first, then id descending. */
export type ScoreListKey = [createdAt: number, id: string];

export interface ScoreListRequest {
  ctx: ProjectContext;
  filters: ScoreListFilters;
  page: PageRequest<ScoreListKey>;
}

export interface ScoreDeleteRequest {
  ctx: ProjectContext;
  id: string;
}

export interface ScoreConfigCreateRequest {
  ctx: ProjectContext;
  input: unknown;
}

export interface ScoreConfigListRequest {
  ctx: ProjectContext;
  page: PageRequest<string>;
}

export interface ScoreConfigUpdateRequest {
  ctx: ProjectContext;
  id: string;
  input: unknown;
}
