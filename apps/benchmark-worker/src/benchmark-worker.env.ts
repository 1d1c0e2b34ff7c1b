import { EmptyAsUnset, ToBool, ToInt, withMediaStorage, withMediaTools, WorkerEnv } from '@cinetrace/config';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Environment of benchmark-worker; validated at boot (see validateEnv). The media storage is where the video scorers read media, the ffmpeg it names what analyses them. */
export class BenchmarkWorkerEnv extends withMediaTools(withMediaStorage(WorkerEnv)) {
  /** Only where media live by default (`<DATA_DIR>/media`, unless MEDIA_DIR says): the worker keeps no data. */
  @IsString() DATA_DIR = './data';

  /** Redis holding the task queue; required. `rediss://` for TLS; user and password in the URL. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /** PEM file of the CA a `rediss://` REDIS_URL's server certificate is checked against; default Node's public CAs. */
  @EmptyAsUnset() @IsOptional() @IsString() REDIS_TLS_CA_FILE?: string;

  /** Key prefix of the task queue in Redis; the same as benchmark-service's. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 letters, digits, ":", "_" or "-"' }) QUEUE_PREFIX = 'cinetrace';

  /**
   * Tasks this worker runs at once (each run's own concurrency is kept by benchmark-service).
   * 64, the most one run may have: one worker holds a whole run's window, and tasks mostly
   * wait on model endpoints, so a wide worker costs little.
   */
  @ToInt() @IsInt() @Min(1) @Max(256) WORKER_CONCURRENCY = 64;

  /** How long a task's lock lives without renewal: a dead worker's tasks are taken over about this long after it died. */
  @ToInt() @IsInt() @Min(1000) @Max(600_000) WORKER_LOCK_MS = 10_000;

  /** How long a stopping worker lets running tasks finish; those still running then go back to the queue for another worker. */
  @ToInt() @IsInt() @Min(0) @Max(600_000) WORKER_SHUTDOWN_GRACE_MS = 6000;

  /** How long a request to project-service (a secret's value for a call) may take. */
  @ToInt() @IsInt() @Min(100) @Max(60_000) BUS_TIMEOUT_MS = 5000;

  /** `true` lets targets and scorers call private, loopback and link-local addresses (local development, tests). */
  @ToBool() @IsBoolean() OUTBOUND_ALLOW_PRIVATE = false;
}
