import { Patterns, ServiceNames } from './wire-names';

export type Pattern = (typeof Patterns)[keyof typeof Patterns];

/**
 * Patterns whose handlers only read: answering one a second time changes nothing. A
 * service commits its request offset after each of the others before it takes the next
 * record (a write read again after a restart would run twice); these ride on the
 * once-a-second commit instead, which spares every read an OffsetCommit (a fifth of the
 * broker requests a read costs). AuthResolve is not one: it records when a key was last used.
 */
export const READ_ONLY_PATTERNS: ReadonlySet<Pattern> = new Set<Pattern>([
  Patterns.ProjectList,
  Patterns.ProjectGet,
  Patterns.ApiKeyList,
  Patterns.SecretList,
  Patterns.SecretActivity,
  Patterns.PromptList,
  Patterns.PromptGet,
  Patterns.PromptVersions,
  Patterns.PromptActivity,
  Patterns.PromptReleases,
  Patterns.PromptDiff,
  Patterns.PromptRender,
  Patterns.TraceList,
  Patterns.TraceGet,
  Patterns.SpanParents,
  Patterns.IngestReceipts,
  Patterns.DatasetList,
  Patterns.DatasetGet,
  Patterns.DatasetItems,
  Patterns.BenchmarkList,
  Patterns.BenchmarkGet,
  Patterns.RunList,
  Patterns.TaskList,
  Patterns.ProjectPing,
  Patterns.PromptPing,
  Patterns.TracePing,
  Patterns.BenchmarkPing,
  Patterns.MediaList,
  Patterns.MediaGet,
  Patterns.MediaBlob,
  // A frame rendered again, or a storyboard job handed over again, is the same cache entry.
  Patterns.MediaFrame,
  Patterns.MediaStoryboard,
  Patterns.MediaAnnotationList,
  Patterns.MediaAnnotationCounts,
  Patterns.MediaPing,
]);

/** The patterns each service answers; a service subscribes to exactly these. */
export const ServicePatterns = {
  [ServiceNames.ProjectService]: [
    Patterns.ProjectPing,
    Patterns.AuthResolve,
    Patterns.ProjectCreate,
    Patterns.ProjectList,
    Patterns.ProjectGet,
    Patterns.ApiKeyCreate,
    Patterns.ApiKeyList,
    Patterns.ApiKeyRevoke,
    Patterns.OrganizationCreate,
    Patterns.SecretCreate,
    Patterns.SecretList,
    Patterns.SecretRotate,
    Patterns.SecretDelete,
    Patterns.SecretActivity,
    Patterns.SecretIntakeKey,
    Patterns.SecretUsesCheck,
    Patterns.SecretResolve,
    Patterns.SecretReferencesRecord,
  ],
  [ServiceNames.PromptService]: [
    Patterns.PromptPing,
    Patterns.PromptCreate,
    Patterns.PromptList,
    Patterns.PromptGet,
    Patterns.PromptUpdate,
    Patterns.PromptDelete,
    Patterns.PromptVersions,
    Patterns.PromptActivity,
    Patterns.PromptReleases,
    Patterns.PromptReleaseMove,
    Patterns.PromptReleaseRemove,
    Patterns.PromptDiff,
    Patterns.PromptRender,
    Patterns.EvaluationsRecord,
  ],
  [ServiceNames.TraceIngest]: [Patterns.TracePing, Patterns.TraceList, Patterns.TraceGet, Patterns.SpanParents, Patterns.IngestReceipts],
  [ServiceNames.BenchmarkService]: [
    Patterns.BenchmarkPing,
    Patterns.DatasetCreate,
    Patterns.DatasetList,
    Patterns.DatasetGet,
    Patterns.DatasetDelete,
    Patterns.DatasetItemsAdd,
    Patterns.DatasetItems,
    Patterns.BenchmarkCreate,
    Patterns.BenchmarkList,
    Patterns.BenchmarkGet,
    Patterns.BenchmarkDelete,
    Patterns.RunStart,
    Patterns.RunList,
    Patterns.TaskList,
    Patterns.TaskOutput,
  ],
  [ServiceNames.MediaService]: [
    Patterns.MediaPing,
    Patterns.MediaRegister,
    Patterns.MediaList,
    Patterns.MediaGet,
    Patterns.MediaBlob,
    Patterns.MediaFrame,
    Patterns.MediaStoryboard,
    Patterns.MediaAnnotationCreate,
    Patterns.MediaAnnotationList,
    Patterns.MediaAnnotationCounts,
    Patterns.MediaCopiesRequest,
  ],
} as const satisfies Record<string, readonly Pattern[]>;

/** The pattern each service answers to say it is up (the gateway's /readyz asks them all). */
export const ServicePings = {
  [ServiceNames.ProjectService]: Patterns.ProjectPing,
  [ServiceNames.PromptService]: Patterns.PromptPing,
  [ServiceNames.TraceIngest]: Patterns.TracePing,
  [ServiceNames.BenchmarkService]: Patterns.BenchmarkPing,
  [ServiceNames.MediaService]: Patterns.MediaPing,
} as const satisfies Record<keyof typeof ServicePatterns, Pattern>;

export type ServiceName = keyof typeof ServicePatterns;

const serviceByPattern = new Map<string, ServiceName>(
  (Object.entries(ServicePatterns) as Array<[ServiceName, readonly Pattern[]]>).flatMap(([service, patterns]) => patterns.map((p) => [p, service] as const)),
);

/** The service that answers `pattern`, or undefined for a pattern no service answers. */
export function serviceAnswering(pattern: string): ServiceName | undefined {
  return serviceByPattern.get(pattern);
}
