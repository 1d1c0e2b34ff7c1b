import { CreateApiKeyInput } from './api-keys/api-key.inputs';
import { CreateOrganizationInput } from './organizations/organization.inputs';
import type { Pattern } from './patterns';
import { Patterns } from './wire-names';

/**
 * What a pattern's handler reads of its request before anything else, checked where the
 * request is consumed (libs/bus) as an HTTP body is at the gateway: any process on the bus
 * can publish, so a service trusts no request's shape. The rest of a request (filters,
 * pages, optional fields) is read defensively by the services.
 */
export interface BusRequestShape {
  /** The caller the handler scopes by, in `ctx`: a project's (ProjectContext) or an organization's (OrgContext). */
  ctx?: 'project' | 'org';
  /** Top-level fields that must be non-empty strings (ids, names, keys). */
  strings?: readonly string[];
  /**
   * The `input` class, validated with class-validator as the gateway validates the body.
   * Only where the handler takes the request whole: a handler that takes `@Payload('input')`
   * typed by its class has the services' validation pipe check it already.
   */
  input?: new () => object;
}

const project = (...strings: string[]): BusRequestShape => ({ ctx: 'project', strings });
const org = (...strings: string[]): BusRequestShape => ({ ctx: 'org', strings });
const none: BusRequestShape = {};

/** Every request pattern's shape (a new pattern does not compile without one). */
export const BUS_REQUEST_SHAPES: Readonly<Record<Pattern, BusRequestShape>> = {
  [Patterns.AuthResolve]: { strings: ['apiKeyHash'] },
  [Patterns.ProjectCreate]: org(),
  [Patterns.ProjectList]: org(),
  [Patterns.ProjectGet]: org('id'),
  [Patterns.ApiKeyCreate]: { ...org(), input: CreateApiKeyInput },
  [Patterns.ApiKeyList]: org(),
  [Patterns.ApiKeyRevoke]: org('id'),
  [Patterns.OrganizationCreate]: { ...org(), input: CreateOrganizationInput },
  [Patterns.SecretCreate]: org(),
  [Patterns.SecretList]: org(),
  [Patterns.SecretRotate]: org('id'),
  [Patterns.SecretDelete]: org('id'),
  [Patterns.SecretActivity]: org('id'),
  [Patterns.SecretIntakeKey]: none,
  [Patterns.SecretUsesCheck]: org(),
  [Patterns.SecretResolve]: { strings: ['projectId', 'name', 'origin', 'replyKey'] },
  [Patterns.SecretReferencesRecord]: none,
  [Patterns.PromptCreate]: project(),
  [Patterns.PromptList]: project(),
  [Patterns.PromptGet]: project(),
  [Patterns.PromptUpdate]: project('id'),
  [Patterns.PromptDelete]: project('id'),
  [Patterns.PromptVersions]: project('id'),
  [Patterns.PromptActivity]: project('id'),
  [Patterns.PromptReleases]: project('id'),
  [Patterns.PromptReleaseMove]: project('id'),
  [Patterns.PromptReleaseRemove]: project('id'),
  [Patterns.PromptDiff]: project('id'),
  [Patterns.PromptRender]: project('id'),
  [Patterns.EvaluationsRecord]: none,
  [Patterns.TraceList]: project(),
  [Patterns.TraceGet]: project('id'),
  [Patterns.SpanParents]: project('traceId'),
  [Patterns.IngestReceipts]: project(),
  [Patterns.DatasetCreate]: project(),
  [Patterns.DatasetList]: project(),
  [Patterns.DatasetGet]: project('id'),
  [Patterns.DatasetDelete]: project('id'),
  [Patterns.DatasetItemsAdd]: project('id'),
  [Patterns.DatasetItems]: project('id'),
  [Patterns.BenchmarkCreate]: project(),
  [Patterns.BenchmarkList]: project(),
  [Patterns.BenchmarkGet]: project('id'),
  [Patterns.BenchmarkDelete]: project('id'),
  [Patterns.RunStart]: project('benchmarkId'),
  [Patterns.RunList]: project('benchmarkId'),
  [Patterns.TaskList]: project('benchmarkId'),
  [Patterns.TaskOutput]: { strings: ['projectId', 'runId', 'itemId'] },
  [Patterns.MediaRegister]: project(),
  [Patterns.MediaList]: project(),
  [Patterns.MediaGet]: project('id'),
  [Patterns.MediaBlob]: project('id'),
  [Patterns.MediaFrame]: project('id'),
  [Patterns.MediaStoryboard]: project('id'),
  [Patterns.MediaAnnotationCreate]: project('mediaId'),
  [Patterns.MediaAnnotationList]: project('mediaId'),
  [Patterns.MediaAnnotationCounts]: project(),
  [Patterns.MediaCopiesRequest]: { strings: ['projectId'] },
  [Patterns.ProjectPing]: none,
  [Patterns.PromptPing]: none,
  [Patterns.TracePing]: none,
  [Patterns.BenchmarkPing]: none,
  [Patterns.MediaPing]: none,
};
