import { StreamServiceEnv, ToInt } from '@cinetrace/config';
import { DEFAULT_TRACE_LIMITS } from '@cinetrace/traces';
import { IsInt, Max, Min } from 'class-validator';

/** Environment of trace-ingest; validated at boot (see validateEnv). */
export class TraceIngestEnv extends StreamServiceEnv {
  /** Partitions of the trace topic when trace-ingest creates it: the most replicas that can share the work. */
  @ToInt() @IsInt() @Min(1) @Max(1000) TRACE_TOPIC_PARTITIONS = 12;

  /** Spans one trace may hold, over all its POSTs (see TraceLimits). */
  @ToInt() @IsInt() @Min(1) @Max(1_000_000) TRACE_MAX_SPANS = DEFAULT_TRACE_LIMITS.maxSpans;

  /** Bytes of span JSON one trace may hold, over all its POSTs: keep a GET under the bus's record size. */
  @ToInt() @IsInt() @Min(1024) @Max(1024 * 1024 * 1024) TRACE_MAX_SPAN_BYTES = DEFAULT_TRACE_LIMITS.maxSpanBytes;
}
