import { StreamConsumerEnv, ToInt } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Environment of trace-ingest; validated at boot (see validateEnv). */
export class TraceIngestEnv extends StreamConsumerEnv {
  /** Partitions of the trace topic when trace-ingest creates it: the most replicas that can share the work. */
  @ToInt() @IsInt() @Min(1) @Max(1000) TRACE_TOPIC_PARTITIONS = 12;

  /** When set, GET /healthz and /readyz are served on this port: the probes of an orchestrator. */
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}
