import type { Span } from './api-types';

/** One row of the waterfall: a span, where it sits in the tree, and its bar as percentages of the trace. */
export interface TimelineRow {
  span: Span;
  depth: number;
  /** Start of the bar from the trace's start, in percent of the trace's duration. */
  offsetPct: number;
  /** Width of the bar in percent; at least MIN_BAR_PCT so instant spans stay visible. */
  widthPct: number;
  startMs: number;
  durationMs: number;
  /** No endTime yet: the bar runs to the end of the trace. */
  running: boolean;
  error: boolean;
}

export interface TimelineLayout {
  rows: TimelineRow[];
  /** The span of time the bars are drawn against (trace and spans together), in ms. */
  totalMs: number;
  startEpochMs: number;
}

export const MIN_BAR_PCT = 0.2;

/**
 * Lays the spans out as a waterfall: depth-first tree order (a parent, then its children
 * by start time), so a child sits under its parent; bars to scale of the whole trace.
 * A span whose parent is not in the trace is shown as a root rather than dropped.
 */
export function layoutTimeline(spans: Span[], trace: { startTime: string; endTime?: string | null }, nowMs = Date.now()): TimelineLayout {
  const starts = new Map<string, number>();
  const ends = new Map<string, number>();
  let first = Date.parse(trace.startTime);
  let last = trace.endTime ? Date.parse(trace.endTime) : Number.NaN;
  for (const span of spans) {
    const start = Date.parse(span.startTime);
    starts.set(span.id, start);
    const end = span.endTime ? Date.parse(span.endTime) : Number.NaN;
    if (!Number.isNaN(end)) ends.set(span.id, end);
    if (Number.isNaN(first) || start < first) first = start;
    const latest = Number.isNaN(end) ? start : end;
    if (Number.isNaN(last) || latest > last) last = latest;
  }
  if (Number.isNaN(first)) first = nowMs;
  // A running trace with open spans: their bars run to now, not to the latest closed span.
  if (!trace.endTime && spans.some((s) => !ends.has(s.id))) last = Math.max(Number.isNaN(last) ? first : last, nowMs);
  if (Number.isNaN(last)) last = first;
  const totalMs = Math.max(last - first, 1);

  const ids = new Set(spans.map((s) => s.id));
  const children = new Map<string | null, Span[]>();
  for (const span of spans) {
    const parent = span.parentId && ids.has(span.parentId) && span.parentId !== span.id ? span.parentId : null;
    const list = children.get(parent);
    if (list) list.push(span);
    else children.set(parent, [span]);
  }
  const byStart = (a: Span, b: Span) => starts.get(a.id)! - starts.get(b.id)! || a.id.localeCompare(b.id);
  for (const list of children.values()) list.sort(byStart);

  const rows: TimelineRow[] = [];
  const visited = new Set<string>();
  // Iterative depth-first walk: a 5,000-deep chain must not overflow the stack.
  const stack: Array<{ span: Span; depth: number }> = [];
  const pushChildren = (parent: string | null, depth: number) => {
    const list = children.get(parent) ?? [];
    for (let i = list.length - 1; i >= 0; i--) stack.push({ span: list[i], depth });
  };
  pushChildren(null, 0);
  while (stack.length) {
    const { span, depth } = stack.pop()!;
    if (visited.has(span.id)) continue;
    visited.add(span.id);
    rows.push(rowFor(span, depth));
    pushChildren(span.id, depth + 1);
  }
  // Spans only reachable through a cycle (the API refuses these; be safe): shown as roots.
  for (const span of [...spans].sort(byStart)) if (!visited.has(span.id)) rows.push(rowFor(span, 0));
  return { rows, totalMs, startEpochMs: first };

  function rowFor(span: Span, depth: number): TimelineRow {
    const start = starts.get(span.id)!;
    const running = !ends.has(span.id);
    const end = running ? last : ends.get(span.id)!;
    const durationMs = Math.max(0, end - start);
    const offsetPct = clampPct(((start - first) / totalMs) * 100);
    const widthPct = Math.min(100 - offsetPct, Math.max(MIN_BAR_PCT, (durationMs / totalMs) * 100));
    return { span, depth, offsetPct, widthPct, startMs: start - first, durationMs, running, error: span.status === 'error' };
  }
}

function clampPct(value: number): number {
  return Math.min(100 - MIN_BAR_PCT, Math.max(0, value));
}

/** Time-axis ticks at round intervals (1, 2 or 5 × 10^n ms), about `count` of them. */
export function axisTicks(totalMs: number, count = 5): Array<{ ms: number; pct: number }> {
  const raw = totalMs / count;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-3)));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: Array<{ ms: number; pct: number }> = [];
  for (let ms = 0; ms <= totalMs + 1e-9; ms += step) ticks.push({ ms, pct: (ms / totalMs) * 100 });
  return ticks;
}

/** Which rows to render for a scroll position: the visible ones plus `overscan` either side. */
export function visibleWindow(rowCount: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan = 10): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(rowCount, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { start, end };
}
