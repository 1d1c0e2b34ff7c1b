import { METADATA_MAX_BYTES } from './validate-trace';
import { MAX_TAGS } from './trace.schema';

/**
 * Bounds on a trace as stored, whatever number of POSTs built it (a payload is bounded
 * on its own by validateTrace; these hold on the merged result).
 */
export interface TraceLimits {
  /** Tags of the trace: the payload limit, on the union. */
  maxTags: number;
  /** `metadata` serialised: the payload limit, on the merged object. */
  metadataMaxBytes: number;
  /** Spans of the trace. */
  maxSpans: number;
  /** Spans of the trace serialised (their stored JSON, summed). */
  maxSpanBytes: number;
}

/**
 * 10,000 spans and 8 MiB of spans: a trace is read back whole by GET, as one bus record in
 * the distributed mode, whose brokers take 16 MiB (docs/deploy.md). 8 MiB of spans, the
 * trace's own input and output (1 MiB each), metadata and the view's per-span fields
 * (ISO times, depth, durationMs: about 250 bytes a span, 2.5 MB at 10,000) stay under it.
 */
export const DEFAULT_TRACE_LIMITS: TraceLimits = {
  maxTags: MAX_TAGS,
  metadataMaxBytes: METADATA_MAX_BYTES,
  maxSpans: 10_000,
  maxSpanBytes: 8 * 1024 * 1024,
};

/** At most this many names per list of `dropped`: the record of a bound must be bounded too. */
export const DROPPED_NAMES_LISTED = 100;

/** What a merge left out to keep a trace within its limits: tag values, metadata keys, span ids. */
export interface DroppedParts {
  tags: string[];
  metadataKeys: string[];
  spanIds: string[];
}

export const noneDropped = (): DroppedParts => ({ tags: [], metadataKeys: [], spanIds: [] });

export const droppedAnything = (d: DroppedParts | null | undefined): d is DroppedParts => !!d && (d.tags.length > 0 || d.metadataKeys.length > 0 || d.spanIds.length > 0);

/** `into` plus the names of `more` it does not list yet, each list capped at DROPPED_NAMES_LISTED. */
export function addDropped(into: DroppedParts | null, more: DroppedParts): DroppedParts | null {
  if (!droppedAnything(more)) return into;
  const unite = (a: string[], b: string[]) => {
    const out = [...a];
    for (const name of b) if (out.length < DROPPED_NAMES_LISTED && !out.includes(name)) out.push(name);
    return out;
  };
  const base = into ?? noneDropped();
  return { tags: unite(base.tags, more.tags), metadataKeys: unite(base.metadataKeys, more.metadataKeys), spanIds: unite(base.spanIds, more.spanIds) };
}
