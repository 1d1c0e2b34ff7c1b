/** Who is calling, as resolved by the gateway from the authenticated headers. */
export interface OrgContext {
  orgId: string;
  apiKeyId: string;
  requestId: string;
  /** Set when the caller's key is restricted to some projects: services show it only those. */
  projectIds?: string[];
}

/** A call scoped to one project (every route outside /projects). */
export interface ProjectContext extends OrgContext {
  projectId: string;
}
