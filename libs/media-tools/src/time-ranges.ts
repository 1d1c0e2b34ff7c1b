/** A stretch of a media in milliseconds, `endMs` excluded. */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

/** One sample of a per-frame measure: the frame's time (seconds) and its value. */
export interface TimedValue {
  time: number;
  value: number;
}

/**
 * Stretches where `isFinding(value)` holds frame after frame, at least `minDurationMs` long.
 * A frame lasts until the next one's time; the last one until `endMs` (the media's duration).
 * Each stretch carries the mean of its values.
 */
export function runsWhere(samples: readonly TimedValue[], isFinding: (value: number) => boolean, minDurationMs: number, endMs: number): Array<TimeRange & { mean: number }> {
  const runs: Array<TimeRange & { mean: number }> = [];
  let start: number | undefined;
  let sum = 0;
  let count = 0;
  const close = (atMs: number) => {
    if (start !== undefined && atMs - start >= minDurationMs) runs.push({ startMs: start, endMs: atMs, mean: sum / count });
    start = undefined;
    sum = 0;
    count = 0;
  };
  samples.forEach((sample, i) => {
    const atMs = Math.round(sample.time * 1000);
    if (!isFinding(sample.value)) return close(atMs);
    start ??= atMs;
    sum += sample.value;
    count += 1;
    if (i === samples.length - 1) close(Math.max(endMs, atMs));
  });
  return runs;
}

/** Overlapping or touching ranges joined, in order. */
export function mergeRanges(ranges: readonly TimeRange[]): TimeRange[] {
  const sorted = [...ranges].sort((a, b) => a.startMs - b.startMs);
  const merged: TimeRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.startMs <= last.endMs) last.endMs = Math.max(last.endMs, range.endMs);
    else merged.push({ startMs: range.startMs, endMs: range.endMs });
  }
  return merged;
}

/** Milliseconds of `durationMs` that the ranges cover, each counted once and clipped to the media. */
export function coveredMs(ranges: readonly TimeRange[], durationMs: number): number {
  return mergeRanges(ranges.map((r) => ({ startMs: Math.max(0, r.startMs), endMs: Math.min(durationMs, r.endMs) })).filter((r) => r.endMs > r.startMs)).reduce(
    (sum, r) => sum + r.endMs - r.startMs,
    0,
  );
}
