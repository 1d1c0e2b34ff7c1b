import { DomainError, ErrorCode, type ProjectContext } from '@cinetrace/contracts';
import type { AuthGuard, Credentials } from './auth.guard';
import { callerContext } from './caller';

/** What an ingest call asks of its key (an OTLP export, a trace POSTed on the fast path): project access with the `ingest` scope. */
const INGEST_ACCESS = { scope: 'ingest', wholeOrganization: false, instanceAdmin: false } as const;

/**
 * The project an ingest call served outside Nest's guards writes to, from its two auth values
 * (HTTP headers or gRPC metadata); refuses as the auth guard does. Used by the OTLP routes
 * (HTTP and gRPC) and the fast path of POST /api/v1/traces.
 */
export async function ingestCaller(auth: AuthGuard, credentials: Credentials, requestId: string): Promise<ProjectContext> {
  const resolved = await auth.authenticate(credentials, 'project', INGEST_ACCESS);
  if (!resolved.project) throw new DomainError(ErrorCode.ProjectKeyRequired, 'Send the project key as X-Project-Key');
  return callerContext(resolved, requestId) as ProjectContext;
}
