import type { TimedValue, TimeRange } from './time-ranges';

/**
 * WCAG 2.x "Three Flashes or Below Threshold" (2.3.1), from each frame's mean luma: a flash is
 * a pair of opposing changes in relative luminance of 10% or more of the maximum, where the
 * darker state is below 0.80; more than three flashes within any one second fail. Luma (Y'
 * of limited-range video) is turned into relative luminance with a 2.2 gamma: an approximation
 * of the whole-frame average, which is what a general flash is about (red flashes and the
 * screen-area rule are not measured).
 */
const CHANGE = 0.1;
const DARKER_BELOW = 0.8;

/** Relative luminance (0..1) of a limited-range 8-bit luma mean. */
export function relativeLuminance(luma: number): number {
  const v = Math.min(1, Math.max(0, (luma - 16) / 219));
  return v ** 2.2;
}

/** The times (seconds) at which the luminance changed by a flash's half: up, or down, past the rule's bounds. */
export function luminanceTransitions(lumas: readonly TimedValue[]): number[] {
  const transitions: number[] = [];
  let anchor: number | undefined;
  let direction = 0;
  for (const { time, value } of lumas) {
    const level = relativeLuminance(value);
    if (anchor === undefined) {
      anchor = level;
      continue;
    }
    const rising = level > anchor;
    const changed = Math.abs(level - anchor) >= CHANGE && Math.min(level, anchor) < DARKER_BELOW;
    if ((direction === 1 && rising) || (direction === -1 && !rising))
      anchor = level; // still going the same way: a further extreme
    else if (changed) {
      transitions.push(time);
      direction = rising ? 1 : -1;
      anchor = level;
    }
  }
  return transitions;
}

/**
 * Stretches where some one-second window holds more than `maxPerSecond` flashes (2 × that many
 * transitions), each with the most flashes any of its windows held.
 */
export function flashingRanges(transitions: readonly number[], maxPerSecond: number): Array<TimeRange & { flashesPerSecond: number }> {
  const ranges: Array<TimeRange & { flashesPerSecond: number }> = [];
  let end = 0;
  for (let first = 0; first < transitions.length; first++) {
    while (end < transitions.length && transitions[end] < transitions[first] + 1) end++;
    const count = end - first;
    if (count / 2 <= maxPerSecond) continue;
    const startMs = Math.round(transitions[first] * 1000);
    const endMs = Math.round(transitions[end - 1] * 1000);
    const last = ranges[ranges.length - 1];
    if (last && startMs <= last.endMs) {
      last.endMs = Math.max(last.endMs, endMs);
      last.flashesPerSecond = Math.max(last.flashesPerSecond, count / 2);
    } else ranges.push({ startMs, endMs, flashesPerSecond: count / 2 });
  }
  return ranges;
}
