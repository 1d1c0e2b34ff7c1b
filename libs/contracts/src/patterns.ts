/**
 * Request-reply message patterns. In the distributed mode each travels in a header of a
 * record on its service's request topic (`<service>.requests`; replies come back on the
 * caller's `<client>.reply`): never rename one, only add new ones.
 */
export const Patterns = {
  AuthResolve: 'project.auth.resolve',
  ProjectCreate: 'project.projects.create',
  ProjectList: 'project.projects.list',
  ProjectGet: 'project.projects.get',
  ApiKeyCreate: 'project.apikeys.create',
  ApiKeyList: 'project.apikeys.list',
  ApiKeyRevoke: 'project.apikeys.revoke',
  OrganizationCreate: 'project.organizations.create',
  SecretCreate: 'project.secrets.create',
  SecretList: 'project.secrets.list',
  SecretRotate: 'project.secrets.rotate',
  SecretDelete: 'project.secrets.delete',
  SecretActivity: 'project.secrets.activity',
  /** The gateway asks for the public key it seals new values to (the bus never carries one in clear). */
  SecretIntakeKey: 'project.secrets.intake-key',
  /** benchmark-service asks whether a benchmark's credential references may be used. */
  SecretUsesCheck: 'project.secrets.uses.check',
  /** The process making an outbound call asks for one value, sealed to its own key. */
  SecretResolve: 'project.secrets.resolve',
  PromptCreate: 'prompt.prompts.create',
  PromptList: 'prompt.prompts.list',
  PromptGet: 'prompt.prompts.get',
  PromptUpdate: 'prompt.prompts.update',
  PromptDelete: 'prompt.prompts.delete',
  PromptVersions: 'prompt.prompts.versions',
  PromptActivity: 'prompt.prompts.activity',
  PromptReleases: 'prompt.releases.list',
  PromptReleaseMove: 'prompt.releases.move',
  PromptReleaseRemove: 'prompt.releases.remove',
  PromptDiff: 'prompt.prompts.diff',
  PromptRender: 'prompt.prompts.render',
  TraceList: 'trace.traces.list',
  TraceGet: 'trace.traces.get',
  SpanParents: 'trace.spans.parents',
  IngestReceipts: 'trace.ingest.receipts',
  DatasetCreate: 'benchmark.datasets.create',
  DatasetList: 'benchmark.datasets.list',
  DatasetGet: 'benchmark.datasets.get',
  DatasetDelete: 'benchmark.datasets.delete',
  DatasetItemsAdd: 'benchmark.datasets.items.add',
  DatasetItems: 'benchmark.datasets.items',
  BenchmarkCreate: 'benchmark.benchmarks.create',
  BenchmarkList: 'benchmark.benchmarks.list',
  BenchmarkGet: 'benchmark.benchmarks.get',
  BenchmarkDelete: 'benchmark.benchmarks.delete',
  RunStart: 'benchmark.runs.start',
  RunList: 'benchmark.runs.list',
  /** prompt-service asks for the completed runs that rendered a prompt at a version (a release's gate). */
  RunsOfPrompt: 'benchmark.runs.of-prompt',
  TaskList: 'benchmark.tasks.list',
  /** project-service asks which live benchmarks name a secret, before deleting it. */
  SecretReferences: 'benchmark.secrets.references',
  ProjectPing: 'project.ping',
  PromptPing: 'prompt.ping',
  TracePing: 'trace.ping',
  BenchmarkPing: 'benchmark.ping',
} as const;

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
  Patterns.RunsOfPrompt,
  Patterns.TaskList,
  Patterns.SecretReferences,
  Patterns.ProjectPing,
  Patterns.PromptPing,
  Patterns.TracePing,
  Patterns.BenchmarkPing,
]);

/** The patterns each service answers; a service subscribes to exactly these. */
export const ServicePatterns = {
  'project-service': [
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
  ],
  'prompt-service': [
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
  ],
  'trace-ingest': [Patterns.TracePing, Patterns.TraceList, Patterns.TraceGet, Patterns.SpanParents, Patterns.IngestReceipts],
  'benchmark-service': [
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
    Patterns.RunsOfPrompt,
    Patterns.TaskList,
    Patterns.SecretReferences,
  ],
} as const satisfies Record<string, readonly Pattern[]>;

/** The pattern each service answers to say it is up (the gateway's /readyz asks them all). */
export const ServicePings = {
  'project-service': Patterns.ProjectPing,
  'prompt-service': Patterns.PromptPing,
  'trace-ingest': Patterns.TracePing,
  'benchmark-service': Patterns.BenchmarkPing,
} as const satisfies Record<keyof typeof ServicePatterns, Pattern>;

export type ServiceName = keyof typeof ServicePatterns;

const serviceByPattern = new Map<string, ServiceName>(
  (Object.entries(ServicePatterns) as Array<[ServiceName, readonly Pattern[]]>).flatMap(([service, patterns]) => patterns.map((p) => [p, service] as const)),
);

/** The service that answers `pattern`, or undefined for a pattern no service answers. */
export function serviceAnswering(pattern: string): ServiceName | undefined {
  return serviceByPattern.get(pattern);
}
