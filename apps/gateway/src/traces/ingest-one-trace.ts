import { DomainError, ProjectContext, TraceAcceptedView } from '@cinetrace/contracts';
import type { FastifyReply } from 'fastify';
import { preferredWaitMs } from '../http/prefer-wait';
import { TraceIngestor, asAccepted } from './trace-ingestor';

const location = (id: string) => `/api/v1/traces/${encodeURIComponent(id)}`;

/**
 * POST /api/v1/traces once the caller is known: validates the trace, publishes it, and on
 * `Prefer: wait` waits for it to be stored. Sets the status (202, or 201 when stored) and
 * headers on `reply`, and answers the body. The controller and the fast path
 * (trace-ingest-fast-path.ts) both run it.
 */
export async function ingestOneTrace(ingestor: TraceIngestor, ctx: ProjectContext, body: unknown, prefer: string | undefined, reply: FastifyReply): Promise<TraceAcceptedView> {
  const checked = await ingestor.check(ctx, body);
  if (!checked.ok) throw DomainError.validation(checked.errors, 'The trace is not valid');
  const waitMs = preferredWaitMs(prefer);
  const [accepted] = await ingestor.publish(ctx, [checked.trace], { awaited: waitMs !== undefined });
  reply.header('location', location(accepted.trace.id));
  const stored = waitMs === undefined ? undefined : await ingestor.waitStored(ctx, [accepted.ingestId], waitMs);
  if (!stored) {
    reply.status(202);
    return asAccepted(accepted.trace);
  }
  reply.status(201).header('preference-applied', 'wait');
  return stored[accepted.ingestId];
}
