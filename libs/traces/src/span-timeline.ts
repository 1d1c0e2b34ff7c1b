import type { StoredSpan } from './stored-trace';

export type TimelineSpan = StoredSpan & { depth: number; durationMs: number | null };

/**
 * Spans in timeline order (start, then id) with their depth below the root (a span
 * whose parent is not stored counts as a root) and duration: enough to draw a timeline.
 */
export function toTimeline(spans: StoredSpan[]): TimelineSpan[] {
  const byId = new Map(spans.map((s) => [s.id, s]));
  const depths = new Map<string, number>();
  const depthOf = (span: StoredSpan): number => {
    const known = depths.get(span.id);
    if (known !== undefined) return known;
    let depth = 0;
    const seen = new Set([span.id]);
    for (let parent = byId.get(span.parentId ?? ''); parent && !seen.has(parent.id); parent = byId.get(parent.parentId ?? '')) {
      seen.add(parent.id);
      depth += 1;
    }
    depths.set(span.id, depth);
    return depth;
  };
  return [...spans]
    .sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((span) => ({ ...span, depth: depthOf(span), durationMs: span.endTime === null ? null : span.endTime - span.startTime }));
}
