/**
 * Request-reply message patterns. Each is also a Kafka topic name (and `<pattern>.reply`
 * its reply topic) in the distributed mode: never rename one, only add new ones.
 */
export const Patterns = {
  AuthResolve: 'project.auth.resolve',
  ProjectCreate: 'project.projects.create',
  ProjectList: 'project.projects.list',
  ProjectGet: 'project.projects.get',
} as const;

export type Pattern = (typeof Patterns)[keyof typeof Patterns];

/** The patterns each service answers; a service subscribes to exactly these. */
export const ServicePatterns = {
  'project-service': [Patterns.AuthResolve, Patterns.ProjectCreate, Patterns.ProjectList, Patterns.ProjectGet],
} as const satisfies Record<string, readonly Pattern[]>;
