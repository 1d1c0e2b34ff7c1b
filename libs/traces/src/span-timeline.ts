import type { StoredSpan } from './stored-trace';

/** What placing a span on the timeline needs of it. */
export type TimelineNode = Pick<StoredSpan, 'id' | 'parentId' | 'startTime' | 'endTime'>;

export interface TimelineSpan<S extends TimelineNode = StoredSpan> {
  span: S;
  depth: number;
  durationMs: number | null;
}

/**
 * Spans in timeline order (start, then id) with their depth below the root (a span
 * whose parent is not stored counts as a root) and duration: enough to draw a timeline.
 * Linear in the spans: each depth is computed once, from its parent's.
 */
export function toTimeline<S extends TimelineNode>(spans: S[]): TimelineSpan<S>[] {
  const byId = new Map(spans.map((s) => [s.id, s]));
  const depths = new Map<string, number>();
  const onPath = new Set<S>();
  const depthOf = (span: S): number => {
    // Walk up to a span of known depth (or a root), then number the path on the way down.
    const path: S[] = [];
    let depth = -1;
    for (let at: S | undefined = span; at; at = byId.get(at.parentId ?? '')) {
      const known = depths.get(at.id);
      if (known !== undefined) {
        depth = known;
        break;
      }
      if (onPath.has(at)) break; // a cycle (never stored, but never loop): where it closes counts as the root
      onPath.add(at);
      path.push(at);
    }
    for (let i = path.length - 1; i >= 0; i--) depths.set(path[i].id, ++depth);
    onPath.clear();
    return depths.get(span.id)!;
  };
  return [...spans]
    .sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((span) => ({ span, depth: depthOf(span), durationMs: span.endTime === null ? null : span.endTime - span.startTime }));
}
