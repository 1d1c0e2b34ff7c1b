export interface StoryboardSpacing {
  /** No two keyframes are further apart than this (nor the last from the end). Default 10 s. */
  maxGapMs?: number;
  /** A cut closer than this to the keyframe before it is left out (a flickering video cuts at every frame). Default 1 s. */
  minSpacingMs?: number;
}

/**
 * The storyboard's keyframes of a video of `durationMs`: the first frame, each scene cut, and
 * where two of them (or the last and the end) are more than `maxGapMs` apart, one every
 * `maxGapMs` after the first of the two. Every instant is within the video (before its end).
 */
export function storyboardTimes(cutsMs: readonly number[], durationMs: number, spacing: StoryboardSpacing = {}): number[] {
  const maxGapMs = spacing.maxGapMs ?? 10_000;
  const minSpacingMs = spacing.minSpacingMs ?? 1000;
  const keyframes = [0];
  for (const cut of [...cutsMs].sort((a, b) => a - b)) {
    if (cut < durationMs && cut - keyframes[keyframes.length - 1] >= minSpacingMs) keyframes.push(cut);
  }
  const times: number[] = [];
  keyframes.forEach((start, i) => {
    const next = keyframes[i + 1] ?? durationMs;
    for (let at = start; ; at += maxGapMs) {
      times.push(at);
      if (next - at <= maxGapMs) break;
    }
  });
  return times;
}
