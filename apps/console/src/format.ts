/**
 * 250 µs, 2.5 ms, 850 ms, 1.24 s, 2 m 05 s: short enough for a waterfall column. Durations
 * come to the microsecond: below a millisecond they read in whole microseconds, below ten
 * with up to two decimals.
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 10) return `${Number(ms.toFixed(2))} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} m ${String(seconds).padStart(2, '0')} s`;
}

/** US dollars with enough digits for per-call costs ($0.0004). */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '';
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(usd < 10 ? 3 : 2)}`;
}

/** `inputTokens: 120, videoSeconds: 8` → "120 in · 8 video s" style, compact. */
export function formatUsage(usage: Record<string, number> | null | undefined): string {
  if (!usage) return '';
  const names: Record<string, string> = { inputTokens: 'in', outputTokens: 'out', totalTokens: 'tok', videoSeconds: 'video s', images: 'img' };
  return Object.entries(usage)
    .map(([key, value]) => `${Number.isInteger(value) ? value : value.toFixed(2)} ${names[key] ?? key}`)
    .join(' · ');
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A 0..1 score: 1, 0, 0.667. */
export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined) return '—';
  return Number.isInteger(score) ? String(score) : score.toFixed(3);
}
