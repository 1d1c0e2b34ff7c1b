// Names the pages use for the public API's shapes: aliases of the schemas generated from
// the OpenAPI document (@cinetrace/api-client), so they cannot drift from what the API serves.
import type { components, paths } from '@cinetrace/api-client';

type Schemas = components['schemas'];

/** What every list answer has (the generated list answers are this, plus a run's summary for tasks). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export type Project = Schemas['ProjectView'];
export type NewProject = Schemas['CreateProjectInput'];
export type TraceSummary = Schemas['TraceSummaryView'];
export type Trace = Schemas['TraceView'];
export type Span = Schemas['SpanView'];
/** The trace list's query (the trace filters' form builds it). */
export type TraceQuery = NonNullable<paths['/api/v1/traces']['get']['parameters']['query']>;
export type Problem = Schemas['Problem'];
export type Run = Schemas['RunView'];
export type RunStatus = Run['status'];
export type RunCounts = Schemas['RunCountsView'];
export type ScoreSummary = Schemas['ScoreSummaryView'];
export type Benchmark = Schemas['BenchmarkView'];
export type Task = Schemas['TaskView'];
export type RunStarted = Schemas['RunStartedView'];
export type Prompt = Schemas['PromptView'];
export type PromptType = Prompt['type'];
/** The prompt list's filters. */
export type PromptFilters = Pick<NonNullable<paths['/api/v1/prompts']['get']['parameters']['query']>, 'type' | 'label' | 'q' | 'includeDeleted'>;
export type PromptVersion = Schemas['PromptVersionView'];
export type PromptActivity = Schemas['PromptActivityView'];
export type Dataset = Schemas['DatasetView'];
export type DatasetItem = Schemas['DatasetItemView'];
export type ApiKey = Schemas['ApiKeyView'];
export type CreatedApiKey = Schemas['CreatedApiKeyView'];
export type NewApiKey = Schemas['CreateApiKeyInput'];
export type KeyScope = ApiKey['scopes'][number];
export type Media = Schemas['MediaView'];
export type MediaProbe = Schemas['MediaProbeView'];
export type Keyframe = Schemas['StoryboardFrameView'];
export type Annotation = Schemas['MediaAnnotationView'];
export type NewAnnotation = Schemas['CreateMediaAnnotationInput'];
export type TaskScore = Schemas['TaskScoreView'];
export type Secret = Schemas['SecretView'];
export type NewSecret = Schemas['CreateSecretInput'];
export type RotatedSecret = Schemas['RotateSecretInput'];

// A record keyed by every generated prompt type, so a type added to the API fails the build until it is listed here.
const PROMPT_TYPE_SET: Record<PromptType, true> = {
  'text-to-video': true,
  'image-to-video': true,
  'video-to-video': true,
  'text-to-image': true,
  'image-to-image': true,
  'text-to-audio': true,
  'text-to-text': true,
};
/** The prompt types, for the type filter. */
export const PROMPT_TYPES = Object.keys(PROMPT_TYPE_SET) as PromptType[];
