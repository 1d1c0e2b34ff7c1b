import { Patterns } from '@cinetrace/contracts';
import { Histogram } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS, oneOf } from './labels';
import { metricsRegistry } from './registry';

/** The label's values: the contracts' patterns, a fixed set (anything else is `other`). */
export const BUS_PATTERNS: readonly string[] = Object.values(Patterns);

/**
 * `ok`: answered; `error`: the service answered with a domain error (a 4xx to the caller);
 * `unavailable`: no answer in time, or the bus or the service could not be reached.
 */
export const BUS_OUTCOMES = ['ok', 'error', 'unavailable'] as const;
export type BusOutcome = (typeof BUS_OUTCOMES)[number];

const requestSeconds = new Histogram({
  name: 'cinetrace_bus_request_duration_seconds',
  help: 'Time from sending a request over the bus to its reply, by pattern and outcome',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: LATENCY_BUCKETS_SECONDS,
  registers: [metricsRegistry],
});

export function observeBusRequest(pattern: string, outcome: BusOutcome, seconds: number): void {
  requestSeconds.observe({ pattern: oneOf(BUS_PATTERNS, pattern), outcome: oneOf(BUS_OUTCOMES, outcome) }, seconds);
}
