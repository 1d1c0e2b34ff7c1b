import { EmptyAsUnset, StreamServiceEnv, ToBool, ToInt } from '@cinetrace/config';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Environment of benchmark-service; validated at boot (see validateEnv). */
export class BenchmarkServiceEnv extends StreamServiceEnv {
  /** `true` lets targets and scorers call private, loopback and link-local addresses (local development, tests). */
  @ToBool() @IsBoolean() OUTBOUND_ALLOW_PRIVATE = false;

  /** Redis for the task queue (BullMQ); required in the distributed mode. `rediss://` for TLS; user and password in the URL. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /** PEM file of the CA a `rediss://` REDIS_URL's server certificate is checked against; default Node's public CAs. */
  @EmptyAsUnset() @IsOptional() @IsString() REDIS_TLS_CA_FILE?: string;

  /** Key prefix of the task queue in Redis; benchmark-workers must use the same. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 letters, digits, ":", "_" or "-"' }) QUEUE_PREFIX = 'cinetrace';

  /** Partitions of `benchmark.task.events` when benchmark-service creates it. */
  @ToInt() @IsInt() @Min(1) @Max(1000) TASK_EVENT_PARTITIONS = 12;

  /** Runs queued or running at once, per project (429 quota_exceeded above). */
  @ToInt() @IsInt() @Min(1) @Max(10_000) QUOTA_ACTIVE_RUNS = 2;

  /** Tasks one run may have, per project. */
  @ToInt() @IsInt() @Min(1) @Max(10_000_000) QUOTA_TASKS_PER_RUN = 10_000;

  /** Runs started in any hour, per project. */
  @ToInt() @IsInt() @Min(1) @Max(1_000_000) QUOTA_STARTS_PER_HOUR = 60;

  /** How long a request to prompt-service (a target's prompt) or project-service (a benchmark's secrets) may take. */
  @ToInt() @IsInt() @Min(100) @Max(60_000) BUS_TIMEOUT_MS = 5000;
}
