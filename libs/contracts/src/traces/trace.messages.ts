import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { TraceAcceptedView } from './trace.views';

export interface TraceListFilters {
  projectId?: string;
  status?: string;
  name?: string;
  userId?: string;
  sessionId?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  /** ISO-8601, as normalised by the gateway. */
  from?: string;
  to?: string;
  /** Traces whose latest score of this name is within scoreMin..scoreMax (inclusive) or is the category scoreValue. */
  scoreName?: string;
  scoreMin?: number;
  scoreMax?: number;
  scoreValue?: string;
}

/** Keyset position of the trace list: newest startTime first, then id descending. */
export type TraceListKey = [startTime: number, id: string];

export interface TraceListRequest {
  ctx: ProjectContext;
  filters: TraceListFilters;
  page: PageRequest<TraceListKey>;
}

export interface TraceGetRequest {
  ctx: ProjectContext;
  id: string;
}

/** Stored parents of the named spans and of their ancestors, to check a payload's parentIds. */
export interface SpanParentsRequest {
  ctx: ProjectContext;
  traceId: string;
  spanIds: string[];
}
export type SpanParentsReply = Record<string, string | null>;

/** Which of these ingests are stored; for each stored one, its trace as it now stands. */
export interface IngestReceiptsRequest {
  ctx: ProjectContext;
  ingestIds: string[];
}
export type IngestReceiptsReply = Record<string, TraceAcceptedView>;
