import { Histogram } from 'prom-client';
import { oneOf } from './labels';
import { metricsRegistry } from './registry';

/** Who an outbound call is for: a benchmark target of each type, or a scorer (an LLM judge or webhook). */
export const OUTBOUND_TARGET_TYPES = ['http', 'openai_chat', 'scorer', 'media'] as const;
export type OutboundTargetType = (typeof OUTBOUND_TARGET_TYPES)[number];

/** `ok`, or the outbound client's reason for a failure (OutboundErrorReason). */
export const OUTBOUND_OUTCOMES = ['ok', 'refused_address', 'redirect', 'timeout', 'too_large', 'http_status', 'invalid_json', 'network', 'aborted'] as const;

const callSeconds = new Histogram({
  name: 'cinetrace_outbound_request_duration_seconds',
  help: 'Time of an outbound call to a user-configured endpoint, by target type and outcome',
  labelNames: ['target_type', 'outcome'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [metricsRegistry],
});

export function observeOutboundCall(targetType: string | undefined, outcome: string, seconds: number): void {
  callSeconds.observe({ target_type: oneOf(OUTBOUND_TARGET_TYPES, targetType), outcome: oneOf(OUTBOUND_OUTCOMES, outcome) }, seconds);
}
