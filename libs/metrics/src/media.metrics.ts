import { Counter } from 'prom-client';
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
