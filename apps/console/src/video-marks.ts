import type { Span } from './api-types';

// What the media panel draws on its time bar: annotations and video_qa findings as ranges,
// each placed by its share of the media's duration, overlapping ranges on lanes of their own.

/** A `video_qa` finding (API.md, Benchmarks: `details.findings`), with the scorer that found it. */
export interface Finding {
  scorer: string;
  check: string;
  startMs: number;
  endMs: number;
  value: number | null;
}

/** A range on the time bar: where it starts (%), how wide it is (%), and its lane (0 the top one). */
export interface Placed<T> {
  item: T;
  leftPct: number;
  widthPct: number;
  lane: number;
}

/** An instant (or a very short range) still needs a mark one can see and point at. */
const MIN_WIDTH_PCT = 0.8;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isMs = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The findings in a score's `details` (`{ findings: [ { check, startMs, endMs, value } ] }`); malformed ones are left out. */
export function findingsOf(scorer: string, details: unknown): Finding[] {
  if (!isRecord(details) || !Array.isArray(details.findings)) return [];
  const found: Finding[] = [];
  for (const f of details.findings) {
    if (!isRecord(f) || typeof f.check !== 'string' || !isMs(f.startMs) || !isMs(f.endMs) || f.endMs < f.startMs) continue;
    found.push({ scorer, check: f.check, startMs: f.startMs, endMs: f.endMs, value: typeof f.value === 'number' ? f.value : null });
  }
  return found;
}

/** Every finding of a task's scores (only `video_qa` scores carry findings). */
export function findingsOfScores(scores: ReadonlyArray<{ scorer: string; details: unknown }>): Finding[] {
  return scores.flatMap((s) => findingsOf(s.scorer, s.details));
}

/**
 * The findings about a span's media in a benchmark task's trace: a task's attempt records its
 * target's call (the span with `attributes.targetType`, whose output the scorers read) and
 * each scorer's score as spans under the same attempt span. Any other span: none.
 */
export function findingsForSpan(span: Span, spans: readonly Span[]): Finding[] {
  if (!isRecord(span.attributes) || typeof span.attributes.targetType !== 'string') return [];
  return spans
    .filter((s) => s.kind === 'scorer' && s.parentId === span.parentId && isRecord(s.attributes) && s.attributes.scorerType === 'video_qa')
    .flatMap((s) => (isRecord(s.output) ? findingsOf(s.name, s.output.details) : []));
}

/** Places ranges on the bar: by time, each on the first lane free at its start. */
export function placeRanges<T extends { startMs: number; endMs: number }>(items: readonly T[], durationMs: number): Placed<T>[] {
  if (!(durationMs > 0)) return [];
  const laneEnds: number[] = [];
  return [...items]
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs)
    .map((item) => {
      const start = Math.min(Math.max(item.startMs, 0), durationMs);
      const end = Math.min(Math.max(item.endMs, start), durationMs);
      const widthPct = Math.max(((end - start) / durationMs) * 100, MIN_WIDTH_PCT);
      const leftPct = Math.min((start / durationMs) * 100, 100 - MIN_WIDTH_PCT);
      // The mark as drawn (at least MIN_WIDTH_PCT) is what must not overlap another on its lane.
      const drawnEnd = leftPct + widthPct;
      let lane = laneEnds.findIndex((laneEnd) => laneEnd <= leftPct);
      if (lane === -1) lane = laneEnds.push(drawnEnd) - 1;
      else laneEnds[lane] = drawnEnd;
      return { item, leftPct, widthPct, lane };
    });
}

/** 6000 → "0:06.0", 83_450 → "1:23.5": a time in a media, to the tenth of a second. */
export function formatMediaTime(ms: number): string {
  const tenths = Math.round(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  return `${minutes}:${seconds.toFixed(1).padStart(4, '0')}`;
}

/** "0:01.0–0:02.0": a range in a media. */
export function formatMediaRange(startMs: number, endMs: number): string {
  return `${formatMediaTime(startMs)}–${formatMediaTime(endMs)}`;
}
