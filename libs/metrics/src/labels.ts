/**
 * Label values must come from fixed sets: a label taking ids, URLs or free text would
 * make a new time series per value and blow up the scraper's memory. Anything outside
 * the set is reported as `other`.
 */
export const OTHER = 'other';

export function oneOf<T extends string>(allowed: readonly T[], value: string | undefined): T | typeof OTHER {
  return value !== undefined && (allowed as readonly string[]).includes(value) ? (value as T) : OTHER;
}

/** Buckets in seconds from 1 ms to 60 s: bus requests, store writes, outbound calls. */
export const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
