import { DomainError, ErrorCode, type ProjectContext } from '@cinetrace/contracts';
import type { AuthGuard, Credentials } from '../auth/auth.guard';
import { callerContext } from '../auth/caller';

/** What an OTLP export asks of its key, over HTTP and gRPC alike: project access with the `ingest` scope. */
const OTLP_EXPORT = { scope: 'ingest', wholeOrganization: false, instanceAdmin: false } as const;

/** The project an OTLP export writes to, from its two auth values (HTTP headers or gRPC metadata); refuses as the auth guard does. */
export async function otlpCaller(auth: AuthGuard, credentials: Credentials, requestId: string): Promise<ProjectContext> {
  const resolved = await auth.authenticate(credentials, 'project', OTLP_EXPORT);
  if (!resolved.project) throw new DomainError(ErrorCode.ProjectKeyRequired, 'Send the project key as X-Project-Key');
  return callerContext(resolved, requestId) as ProjectContext;
}
