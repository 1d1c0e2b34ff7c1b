import { StreamConsumerEnv, ToInt } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { DEFAULT_TRACE_LIMITS, TraceLimits } from '@cinetrace/traces';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Environment of trace-ingest; validated at boot (see validateEnv). */
export class TraceIngestEnv extends StreamConsumerEnv {
  /** Partitions of the trace topic when trace-ingest creates it: the most replicas that can share the work. */
  @ToInt() @IsInt() @Min(1) @Max(1000) TRACE_TOPIC_PARTITIONS = 12;

  /** When set, GET /healthz and /readyz are served on this port: the probes of an orchestrator. */
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;

  /** Spans one trace may hold, over all its POSTs (see TraceLimits). */
  @ToInt() @IsInt() @Min(1) @Max(1_000_000) TRACE_MAX_SPANS = DEFAULT_TRACE_LIMITS.maxSpans;

  /** Bytes of span JSON one trace may hold, over all its POSTs: keep a GET under the bus's record size. */
  @ToInt() @IsInt() @Min(1024) @Max(1024 * 1024 * 1024) TRACE_MAX_SPAN_BYTES = DEFAULT_TRACE_LIMITS.maxSpanBytes;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}

/** The limits a merge keeps a trace within: the defaults, with the span bounds this deployment set. */
export function traceLimits(env?: Pick<TraceIngestEnv, 'TRACE_MAX_SPANS' | 'TRACE_MAX_SPAN_BYTES'>): TraceLimits {
  return {
    ...DEFAULT_TRACE_LIMITS,
    maxSpans: env?.TRACE_MAX_SPANS ?? DEFAULT_TRACE_LIMITS.maxSpans,
    maxSpanBytes: env?.TRACE_MAX_SPAN_BYTES ?? DEFAULT_TRACE_LIMITS.maxSpanBytes,
  };
}
