/**
 * Request-reply message patterns. Each is also a Kafka topic name (and `<pattern>.reply`
 * its reply topic) in the distributed mode: never rename one, only add new ones.
 */
export const Patterns = {
  AuthResolve: 'project.auth.resolve',
  ProjectCreate: 'project.projects.create',
  ProjectList: 'project.projects.list',
  ProjectGet: 'project.projects.get',
  PromptCreate: 'prompt.prompts.create',
  PromptList: 'prompt.prompts.list',
  PromptGet: 'prompt.prompts.get',
  PromptUpdate: 'prompt.prompts.update',
  PromptDelete: 'prompt.prompts.delete',
  PromptVersions: 'prompt.prompts.versions',
  PromptActivity: 'prompt.prompts.activity',
} as const;

export type Pattern = (typeof Patterns)[keyof typeof Patterns];

/** The patterns each service answers; a service subscribes to exactly these. */
export const ServicePatterns = {
  'project-service': [Patterns.AuthResolve, Patterns.ProjectCreate, Patterns.ProjectList, Patterns.ProjectGet],
  'prompt-service': [
    Patterns.PromptCreate,
    Patterns.PromptList,
    Patterns.PromptGet,
    Patterns.PromptUpdate,
    Patterns.PromptDelete,
    Patterns.PromptVersions,
    Patterns.PromptActivity,
  ],
} as const satisfies Record<string, readonly Pattern[]>;
