import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/** How a copy of a media a trace output named ended: `copied` into the storage, or `failed` for good. */
export const MEDIA_COPY_OUTCOMES = ['copied', 'failed'] as const;
export type MediaCopyOutcome = (typeof MEDIA_COPY_OUTCOMES)[number];

const copies = new Counter({
  name: 'cinetrace_media_copies_total',
  help: 'Copies of media that trace and span outputs name by URL, by outcome',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export function countMediaCopy(outcome: MediaCopyOutcome): void {
  copies.inc({ outcome });
}

/** How a probe job ended: the media `ready` or `failed` (settled), or `retried` (storage or ffprobe away; the queue tries again). */
export const MEDIA_PROBE_OUTCOMES = ['ready', 'failed', 'retried'] as const;
export type MediaProbeOutcome = (typeof MEDIA_PROBE_OUTCOMES)[number];

const probeSeconds = new Histogram({
  name: 'cinetrace_media_probe_duration_seconds',
  help: "Time of a media probe job, from reading the media's row to recording the outcome (ffprobe's run included), by outcome",
  labelNames: ['outcome'] as const,
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

export function observeMediaProbe(outcome: MediaProbeOutcome, seconds: number): void {
  probeSeconds.observe({ outcome }, seconds);
}
