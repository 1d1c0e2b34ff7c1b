import type { Span } from './api-types';
import { formatDuration } from './format';
import { MIN_BAR_PCT, axisTicks, epochMs, layoutTimeline, visibleWindow } from './timeline';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
function span(id: string, parentId: string | null, start: number, end: number | null, extra: Partial<Span> = {}): Span {
  const times = { startTime: at(start), endTime: end === null ? null : at(end), durationMs: end === null ? null : end - start };
  const unset = { statusMessage: null, depth: 0, model: null, input: null, output: null, usage: null, costUsd: null, costSource: null, attributes: null, events: null };
  return { id, parentId, name: id, kind: 'span', status: 'unset', ...times, ...unset, ...extra };
}

describe('layoutTimeline', () => {
  const trace = { startTime: at(0), endTime: at(1000) };

  it('orders spans depth-first (a parent, then its children by start) with their depth', () => {
    const spans = [span('root', null, 0, 1000), span('b', 'root', 500, 900), span('a', 'root', 100, 400), span('a1', 'a', 150, 300), span('b1', 'b', 600, 700)];
    const { rows } = layoutTimeline(spans, trace);
    expect(rows.map((r) => [r.span.id, r.depth])).toEqual([
      ['root', 0],
      ['a', 1],
      ['a1', 2],
      ['b', 1],
      ['b1', 2],
    ]);
  });

  it('draws bars to scale of the trace: offset and width in percent', () => {
    const { rows, totalMs } = layoutTimeline([span('root', null, 0, 1000), span('x', 'root', 250, 750)], trace);
    expect(totalMs).toBe(1000);
    expect(rows[0]).toMatchObject({ offsetPct: 0, widthPct: 100, durationMs: 1000 });
    expect(rows[1]).toMatchObject({ offsetPct: 25, widthPct: 50, startMs: 250, durationMs: 500 });
  });

  it('keeps an instant span visible and inside the track', () => {
    const { rows } = layoutTimeline([span('root', null, 0, 1000), span('tick', 'root', 1000, 1000)], trace);
    expect(rows[1].widthPct).toBeGreaterThanOrEqual(MIN_BAR_PCT);
    expect(rows[1].offsetPct + rows[1].widthPct).toBeLessThanOrEqual(100);
  });

  it('widens the scale to spans outside the trace times', () => {
    const { rows, totalMs } = layoutTimeline([span('late', null, 0, 2000)], trace);
    expect(totalMs).toBe(2000);
    expect(rows[0].widthPct).toBe(100);
  });

  it('runs an open span to now while the trace runs, and marks it', () => {
    const { rows, totalMs } = layoutTimeline([span('open', null, 0, null)], { startTime: at(0) }, T0 + 4000);
    expect(totalMs).toBe(4000);
    expect(rows[0]).toMatchObject({ running: true, widthPct: 100, durationMs: 4000 });
  });

  it('marks errors, and shows a span whose parent is missing as a root', () => {
    const { rows } = layoutTimeline([span('orphan', 'gone', 100, 200, { status: 'error' })], trace);
    expect(rows[0]).toMatchObject({ depth: 0, error: true });
  });

  it('lays out a 5,000-deep chain without overflowing the stack', () => {
    const spans = Array.from({ length: 5000 }, (_, i) => span(`s${i}`, i ? `s${i - 1}` : null, i, 10_000));
    const { rows } = layoutTimeline(spans, { startTime: at(0), endTime: at(10_000) });
    expect(rows).toHaveLength(5000);
    expect(rows[4999].depth).toBe(4999);
  });

  it('still shows every span when parents form a cycle', () => {
    const { rows } = layoutTimeline([span('a', 'b', 0, 10), span('b', 'a', 5, 10)], trace);
    expect(rows.map((r) => r.span.id).sort()).toEqual(['a', 'b']);
  });
});

describe('sub-millisecond spans (times to the microsecond)', () => {
  const trace = { startTime: at(0), endTime: at(1000), durationMs: 1000 };
  /** A span as the API answers it: ISO times written to the millisecond (truncated), durationMs to the microsecond. */
  function apiSpan(id: string, parentId: string | null, startMs: number, durationMs: number): Span {
    const truncated = (ms: number) => new Date(T0 + Math.floor(ms)).toISOString();
    return { ...span(id, parentId, 0, 0), startTime: truncated(startMs), endTime: truncated(startMs + durationMs), durationMs };
  }

  it('draws a 0.25 ms span as long as it lasted (the API durationMs), visible, and labels it in microseconds', () => {
    const { rows } = layoutTimeline([span('root', null, 0, 1000), apiSpan('lookup', 'root', 400.1, 0.25)], trace);
    expect(rows[1].durationMs).toBe(0.25);
    expect(rows[1].widthPct).toBeGreaterThanOrEqual(MIN_BAR_PCT);
    expect(formatDuration(rows[1].durationMs)).toBe('250 µs');
  });

  it('scales a trace shorter than a millisecond to its own length, not to a whole millisecond', () => {
    const spans = [apiSpan('root', null, 0, 0.75), apiSpan('a', 'root', 0, 0.25)];
    const { rows, totalMs } = layoutTimeline(spans, { startTime: at(0), endTime: at(0), durationMs: 0.75 });
    expect(totalMs).toBe(0.75);
    expect(rows[0]).toMatchObject({ widthPct: 100, durationMs: 0.75 });
    expect(rows[1].widthPct).toBeCloseTo(100 / 3, 6);
    // The axis counts in microseconds: round steps, without the dust of summed decimals.
    expect(axisTicks(totalMs).map((t) => formatDuration(t.ms))).toEqual(['0 µs', '200 µs', '400 µs', '600 µs']);
  });

  it('keeps the order the API lists spans in (their start to the microsecond) when they start within one millisecond', () => {
    // The API lists z (at 0.100) before a (at 0.600): the ISO times say 0 for both, and ids would put a first.
    const spans = [span('root', null, 0, 1000), apiSpan('z-first', 'root', 0.1, 0.2), apiSpan('a-second', 'root', 0.6, 0.3)];
    expect(layoutTimeline(spans, trace).rows.map((r) => r.span.id)).toEqual(['root', 'z-first', 'a-second']);
  });

  it('places spans by their microseconds when the times carry them', () => {
    const micro = (ms: number) => `${new Date(T0 + Math.floor(ms)).toISOString().slice(0, -1)}${String(Math.round((ms % 1) * 1000)).padStart(3, '0')}Z`;
    const withMicros = (id: string, start: number, end: number): Span => ({ ...span(id, 'root', 0, 0), startTime: micro(start), endTime: micro(end), durationMs: null });
    const spans = [span('root', null, 0, 1), withMicros('late', 0.6, 0.9), withMicros('early', 0.1, 0.35)];
    const { rows } = layoutTimeline(spans, { startTime: at(0), endTime: at(1) });
    expect(rows.map((r) => r.span.id)).toEqual(['root', 'early', 'late']);
    expect(rows[1]).toMatchObject({ startMs: 0.1, durationMs: 0.25 });
    expect(rows[1].offsetPct).toBeCloseTo(10, 6);
    expect(rows[2].offsetPct).toBeCloseTo(60, 6);
    expect(rows[2].widthPct).toBeCloseTo(30, 6);
  });

  it('reads the microseconds of an ISO time, whatever its zone, and times to the millisecond as Date.parse does', () => {
    // An epoch double holds a time to about a quarter of a microsecond: compared to the microsecond.
    expect(epochMs('2026-01-01T00:00:00.000250Z') - T0).toBeCloseTo(0.25, 3);
    expect(epochMs('2026-01-01T01:00:00.123456789+01:00') - T0).toBeCloseTo(123.456, 3);
    expect(epochMs('2026-01-01T00:00:00.5Z')).toBe(T0 + 500);
    expect(epochMs('2026-01-01T00:00:00Z')).toBe(T0);
    expect(epochMs('not a time')).toBeNaN();
  });

  it('labels durations to the microsecond', () => {
    expect([0, 0.001, 0.25, 0.999, 1.25, 5, 9.996, 850, 1240].map(formatDuration)).toEqual(['0 µs', '1 µs', '250 µs', '999 µs', '1.25 ms', '5 ms', '10 ms', '850 ms', '1.24 s']);
  });
});

describe('axisTicks', () => {
  it('picks round steps from zero to the end', () => {
    expect(axisTicks(1000).map((t) => t.ms)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(axisTicks(40_000).map((t) => t.ms)).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
    expect(axisTicks(1000).at(-1)!.pct).toBe(100);
  });
});

describe('visibleWindow', () => {
  it('renders the rows in view plus the overscan, clamped to the list', () => {
    expect(visibleWindow(5000, 28, 0, 560, 10)).toEqual({ start: 0, end: 30 });
    expect(visibleWindow(5000, 28, 28 * 1000, 560, 10)).toEqual({ start: 990, end: 1030 });
    expect(visibleWindow(5000, 28, 28 * 5000, 560, 10)).toEqual({ start: 4990, end: 5000 });
  });
});
