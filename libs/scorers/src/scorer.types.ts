import type { SecretReference } from '@cinetrace/contracts';
import type { ConformanceSpec, MediaProbe, MediaTool, QaThresholdOverrides, SimilarityMethod, VideoQaCheck } from '@cinetrace/media-tools';

/** The kinds of scorer a benchmark may name (API.md, "Benchmarks"). Stored as is: never rename one. */
export const SCORER_TYPES = [
  'exact_match',
  'contains',
  'regex',
  'json_schema',
  'numeric_tolerance',
  'range',
  'string_similarity',
  'llm_judge',
  'http',
  'video_conformance',
  'video_qa',
  'video_similarity',
] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

export const isScorerType = (value: unknown): value is ScorerType => typeof value === 'string' && (SCORER_TYPES as readonly string[]).includes(value);

/** Scorers whose score is all or nothing: they pass only at 1 unless told otherwise. */
export const EXACT_SCORER_TYPES: readonly ScorerType[] = ['exact_match', 'contains', 'regex', 'json_schema', 'numeric_tolerance', 'range', 'video_conformance'];

/** Scorers that read a media the output names (a file on this machine, analysed by ffmpeg). */
export const VIDEO_SCORER_TYPES = ['video_conformance', 'video_qa', 'video_similarity'] as const;
export type VideoScorerType = (typeof VIDEO_SCORER_TYPES)[number];
export const isVideoScorerType = (value: unknown): value is VideoScorerType => typeof value === 'string' && (VIDEO_SCORER_TYPES as readonly string[]).includes(value);

export const MAX_SCORERS = 20;
export const SCORER_NAME_MAX = 100;

/** What every scorer accepts. `field` is a dot path into the output (`video.durationSeconds`). */
export interface CommonScorerConfig {
  field?: string;
  threshold?: number;
}
export interface ExactMatchConfig extends CommonScorerConfig {
  caseSensitive?: boolean;
}
export interface ContainsConfig extends CommonScorerConfig {
  /** Without it, the item's `expected` is looked for. */
  value?: string;
  caseSensitive?: boolean;
}
export interface RegexConfig extends CommonScorerConfig {
  pattern: string;
  flags?: string;
}
export interface JsonSchemaConfig extends CommonScorerConfig {
  schema: Record<string, unknown>;
}
export interface NumericToleranceConfig extends CommonScorerConfig {
  tolerance: number;
}
export interface RangeConfig extends CommonScorerConfig {
  field: string;
  min?: number;
  max?: number;
}
export type StringSimilarityConfig = CommonScorerConfig;
export interface LlmJudgeConfig extends CommonScorerConfig {
  baseUrl: string;
  model: string;
  rubric: string;
  /** The organization's secret holding the key (sent as `Authorization: Bearer <value>`), never the key itself. */
  apiKey?: SecretReference;
}
export interface HttpScorerConfig extends CommonScorerConfig {
  url: string;
  /** Plain values, or `{ secret }` (the only form a credential header may take). */
  headers?: Record<string, string | SecretReference>;
}

/** The spec, else the item's `expected` (its fields of a spec). */
export interface VideoConformanceConfig extends CommonScorerConfig {
  expected?: ConformanceSpec;
}
export interface VideoQaConfig extends CommonScorerConfig {
  checks: VideoQaCheck[];
  thresholds?: QaThresholdOverrides;
}
/** `expected`: the item's expected media; `{ runId }`: the same item's output in that run (of this project). */
export type SimilarityReference = 'expected' | { runId: string };
export interface VideoSimilarityConfig extends CommonScorerConfig {
  method: SimilarityMethod;
  reference?: SimilarityReference;
}

interface ScorerConfigs {
  exact_match: ExactMatchConfig;
  contains: ContainsConfig;
  regex: RegexConfig;
  json_schema: JsonSchemaConfig;
  numeric_tolerance: NumericToleranceConfig;
  range: RangeConfig;
  string_similarity: StringSimilarityConfig;
  llm_judge: LlmJudgeConfig;
  http: HttpScorerConfig;
  video_conformance: VideoConformanceConfig;
  video_qa: VideoQaConfig;
  video_similarity: VideoSimilarityConfig;
}

/** A scorer as validateScorers normalises it: named (the type by default), config always present. */
export type ScorerSpec = { [T in ScorerType]: { name: string; type: T; config: ScorerConfigs[T] } }[ScorerType];
export type ScorerSpecOf<T extends ScorerType> = Extract<ScorerSpec, { type: T }>;

/** One benchmark item and what the task produced for it. */
export interface ScoreInput {
  input: unknown;
  expected: unknown;
  output: unknown;
  metadata: unknown;
}

/** One entry of a task's scores: either score and passed, or error. */
export interface ScoreResult {
  scorer: string;
  score: number | null;
  passed: boolean | null;
  details: unknown | null;
  error: string | null;
}

export interface ScorerFieldError {
  path: string;
  message: string;
}

/**
 * Where the local scorers whose cost a user controls (regex, json_schema, string_similarity)
 * run: ScoringThreads off the event loop in the services, inThisThread in unit tests.
 */
export interface LocalScoring {
  score(spec: ScorerSpec, input: ScoreInput): Promise<ScoreOutcome>;
}

/** What the scorers need from outside, injected so tests need no network and no threads. */
export interface ScorerDeps {
  local: LocalScoring;
  postJson(url: string, body: unknown, options: { headers?: Record<string, string>; timeoutMs: number }): Promise<{ status: number; body: unknown }>;
  /**
   * The value of the organization's secret `name`, released for a call to `url` (its host),
   * asked when the call is made, so a rotated secret takes effect at the next task.
   * Rejects with a message fit for users when it cannot be had.
   */
  secretValue(name: string, url: string): Promise<string>;
  timeoutMs: number;
  /** Where the video scorers get their media; absent where none can run (they then give an error). */
  media?: MediaAccess;
}

/** A media opened for analysis: a local file (removed by release) and what its probe says. */
export interface OpenedMedia {
  path: string;
  probe: MediaProbe;
  release(): Promise<void>;
}

/**
 * How the video scorers reach media: the worker opens a reference the output or the item
 * names, within the task's project, and finds an item's output in another run. Rejections
 * carry messages fit for users (a ScorerError, or what runScorer shows of another error).
 */
export interface MediaAccess {
  /** Opens `{ mediaId }` or `{ url, contentType }`; `what` names it in errors ("the output"). */
  open(reference: unknown, what: string): Promise<OpenedMedia>;
  /** The output this item had in run `runId` of the task's project. */
  outputInRun(runId: string): Promise<unknown>;
  ffmpeg(): MediaTool;
}

/** `config.threshold`, else 1 for the all-or-nothing scorers and 0.5 for the graded ones. */
export function scorerThreshold(spec: ScorerSpec): number {
  return spec.config.threshold ?? (EXACT_SCORER_TYPES.includes(spec.type) ? 1 : 0.5);
}

/** What one scorer concludes before runScorer applies the threshold. */
export interface ScoreOutcome {
  score: number;
  /** Only an http scorer may decide this itself. */
  passed?: boolean;
  details?: unknown;
}
