import { EmptyAsUnset, ServiceEnv, ToInt, withMediaStorage, withMediaTools } from '@cinetrace/config';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Environment of media-service; validated at boot (see validateEnv): the bus, its store, the media storage it probes from, the ffprobe it runs, the probe queue. */
export class MediaServiceEnv extends withMediaTools(withMediaStorage(ServiceEnv)) {
  /** Redis for the probe queue (BullMQ, `media-jobs`); required in the distributed mode. `rediss://` for TLS; user and password in the URL. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /** PEM file of the CA a `rediss://` REDIS_URL's server certificate is checked against; default Node's public CAs. */
  @EmptyAsUnset() @IsOptional() @IsString() REDIS_TLS_CA_FILE?: string;

  /** Key prefix of the probe queue in Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 letters, digits, ":", "_" or "-"' }) QUEUE_PREFIX = 'cinetrace';

  /** Probes (ffprobe child processes) one media-service runs at once. */
  @ToInt() @IsInt() @Min(1) @Max(64) PROBE_CONCURRENCY = 2;

  /** How long one probe may take, reading the bytes included; past it the media is `failed`. */
  @ToInt() @IsInt() @Min(1000) @Max(600_000) PROBE_TIMEOUT_MS = 60_000;

  /**
   * Distributed: how long a probe job's lock in Redis lasts unless renewed (it is, every half of
   * it, while the probe runs). A media-service that dies mid-probe leaves its job to be taken
   * up again once the lock has lapsed and a stalled-job check (as often as this) has seen it.
   */
  @ToInt() @IsInt() @Min(1000) @Max(600_000) PROBE_LOCK_MS = 30_000;
}
