import { DEFAULT_TRACE_LIMITS, TraceLimits } from '@cinetrace/traces';
import type { TraceIngestEnv } from '../trace-ingest.env';

/** The limits a merge keeps a trace within: the defaults, with the span bounds this deployment set. */
export function traceLimits(env?: Pick<TraceIngestEnv, 'TRACE_MAX_SPANS' | 'TRACE_MAX_SPAN_BYTES'>): TraceLimits {
  return {
    ...DEFAULT_TRACE_LIMITS,
    maxSpans: env?.TRACE_MAX_SPANS ?? DEFAULT_TRACE_LIMITS.maxSpans,
    maxSpanBytes: env?.TRACE_MAX_SPAN_BYTES ?? DEFAULT_TRACE_LIMITS.maxSpanBytes,
  };
}
