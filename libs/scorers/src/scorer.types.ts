import type { SecretReference } from '@cinetrace/contracts';

/** The kinds of scorer a benchmark may name (API.md, "Benchmarks"). Stored as is: never rename one. */
export const SCORER_TYPES = ['exact_match', 'contains', 'regex', 'json_schema', 'numeric_tolerance', 'range', 'string_similarity', 'llm_judge', 'http'] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

export const isScorerType = (value: unknown): value is ScorerType => typeof value === 'string' && (SCORER_TYPES as readonly string[]).includes(value);

/** Scorers whose score is all or nothing: they pass only at 1 unless told otherwise. */
export const EXACT_SCORER_TYPES: readonly ScorerType[] = ['exact_match', 'contains', 'regex', 'json_schema', 'numeric_tolerance', 'range'];

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
