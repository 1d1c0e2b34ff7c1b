/**
 * Request-reply message patterns. Each is also a Kafka topic name in the distributed mode
 * (replies come back on the caller's `<client>.reply`): never rename one, only add new ones.
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
  PromptCreate: 'prompt.prompts.create',
  PromptList: 'prompt.prompts.list',
  PromptGet: 'prompt.prompts.get',
  PromptUpdate: 'prompt.prompts.update',
  PromptDelete: 'prompt.prompts.delete',
  PromptVersions: 'prompt.prompts.versions',
  PromptActivity: 'prompt.prompts.activity',
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
  TaskList: 'benchmark.tasks.list',
  ProjectPing: 'project.ping',
  PromptPing: 'prompt.ping',
  TracePing: 'trace.ping',
  BenchmarkPing: 'benchmark.ping',
} as const;

export type Pattern = (typeof Patterns)[keyof typeof Patterns];

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
    Patterns.TaskList,
  ],
} as const satisfies Record<string, readonly Pattern[]>;

/** The pattern each service answers to say it is up (the gateway's /readyz asks them all). */
export const ServicePings = {
  'project-service': Patterns.ProjectPing,
  'prompt-service': Patterns.PromptPing,
  'trace-ingest': Patterns.TracePing,
  'benchmark-service': Patterns.BenchmarkPing,
} as const satisfies Record<keyof typeof ServicePatterns, Pattern>;
