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
/** The shortest scale a trace is drawn against: one microsecond, the finest time the API keeps. */
export const MIN_TOTAL_MS = 0.001;

const SECOND_FRACTION = /T\d{2}:\d{2}:\d{2}\.(\d+)/;

/**
 * Epoch milliseconds of an ISO time, with its microseconds as a fraction when it writes them
 * (`…00.000250Z` reads 0.25 ms past the second; Date.parse would drop them). NaN for a time
 * that does not parse.
 */
export function epochMs(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return ms;
  const fraction = SECOND_FRACTION.exec(iso)?.[1];
  return fraction && fraction.length > 3 ? ms + Number(fraction.slice(3, 6).padEnd(3, '0')) / 1000 : ms;
}

/** A time in milliseconds to the microsecond: differences of epoch doubles carry dust past it. */
const toMicros = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * Lays the spans out as a waterfall: depth-first tree order (a parent, then its children
 * by start time), so a child sits under its parent; bars to scale of the whole trace.
 * A span whose parent is not in the trace is shown as a root rather than dropped.
 *
 * Sub-millisecond spans: the API writes times to the millisecond but answers `durationMs`
 * to the microsecond, and lists spans in their start order to the microsecond. So a closed
 * span ends at its start plus its `durationMs` (its bar as long as it was), and spans that
 * start within one millisecond keep the API's order rather than their ids'.
 */
export function layoutTimeline(spans: Span[], trace: { startTime: string; endTime?: string | null; durationMs?: number | null }, nowMs = Date.now()): TimelineLayout {
  const starts = new Map<string, number>();
  const ends = new Map<string, number>();
  const order = new Map<string, number>();
  let first = epochMs(trace.startTime);
  let last = trace.endTime ? endOf(trace, first) : Number.NaN;
  for (const span of spans) {
    const start = epochMs(span.startTime);
    starts.set(span.id, start);
    if (!order.has(span.id)) order.set(span.id, order.size);
    const end = endOf(span, start);
    if (!Number.isNaN(end)) ends.set(span.id, end);
    if (Number.isNaN(first) || start < first) first = start;
    const latest = Number.isNaN(end) ? start : end;
    if (Number.isNaN(last) || latest > last) last = latest;
  }
  if (Number.isNaN(first)) first = nowMs;
  // A running trace with open spans: their bars run to now, not to the latest closed span.
  if (!trace.endTime && spans.some((s) => !ends.has(s.id))) last = Math.max(Number.isNaN(last) ? first : last, nowMs);
  if (Number.isNaN(last)) last = first;
  const totalMs = Math.max(toMicros(last - first), MIN_TOTAL_MS);

  const ids = new Set(spans.map((s) => s.id));
  const children = new Map<string | null, Span[]>();
  for (const span of spans) {
    const parent = span.parentId && ids.has(span.parentId) && span.parentId !== span.id ? span.parentId : null;
    const list = children.get(parent);
    if (list) list.push(span);
    else children.set(parent, [span]);
  }
  const byStart = (a: Span, b: Span) => starts.get(a.id)! - starts.get(b.id)! || order.get(a.id)! - order.get(b.id)!;
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
    const durationMs = Math.max(0, toMicros(end - start));
    const startMs = toMicros(start - first);
    const offsetPct = clampPct((startMs / totalMs) * 100);
    const widthPct = Math.min(100 - offsetPct, Math.max(MIN_BAR_PCT, (durationMs / totalMs) * 100));
    return { span, depth, offsetPct, widthPct, startMs, durationMs, running, error: span.status === 'error' };
  }
}

/** A closed span's (or trace's) end: its start plus the API's durationMs (to the microsecond), else its endTime; NaN while it runs. */
function endOf(timed: { endTime?: string | null; durationMs?: number | null }, start: number): number {
  if (!timed.endTime) return Number.NaN;
  const { durationMs } = timed;
  if (typeof durationMs === 'number' && Number.isFinite(durationMs) && durationMs >= 0 && !Number.isNaN(start)) return start + durationMs;
  return epochMs(timed.endTime);
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
  // Multiplied, not summed: 0.1 added three times is 0.30000000000000004.
  for (let i = 0; i * step <= totalMs * (1 + 1e-9); i++) {
    const ms = toMicros(i * step);
    ticks.push({ ms, pct: (ms / totalMs) * 100 });
  }
  return ticks;
}

/** Which rows to render for a scroll position: the visible ones plus `overscan` either side. */
export function visibleWindow(rowCount: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan = 10): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(rowCount, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { start, end };
}
