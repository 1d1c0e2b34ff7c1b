import { EmptyAsUnset, ServiceEnv, ToBool, ToInt, withMediaStorage, withMediaTools } from '@cinetrace/config';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Environment of media-service; validated at boot (see validateEnv): the bus, its store, the media storage it probes from, the ffmpeg and ffprobe it runs, the probe, storyboard and copy queues, the copies' fetches. */
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

  /**
   * One project's probes running at once, so that one project's flood leaves the other slots to
   * the others (issue 59). Unset: half of PROBE_CONCURRENCY, at least 1 (perProjectSlots).
   */
  @ToInt() @IsOptional() @IsInt() @Min(1) @Max(64) PROBE_PROJECT_CONCURRENCY?: number;

  /**
   * The most pixels (width × height) of a picture media-service decodes: ffprobe and ffmpeg
   * refuse a larger one from its header, before decoding it (an "image bomb": a small PNG of
   * 8000×8000 takes ~256 MB and seconds to decode). Such a media is `failed`, saying so.
   * 40 million: above 8K UHD (7680×4320, 33.2 million).
   */
  @ToInt() @IsInt() @Min(1_000_000) @Max(1_000_000_000) MEDIA_MAX_PIXELS = 40_000_000;

  /** How long one probe may take, reading the bytes included; past it the media is `failed`. */
  @ToInt() @IsInt() @Min(1000) @Max(600_000) PROBE_TIMEOUT_MS = 60_000;

  /**
   * How long one frame's render may take (ffmpeg, and the copy of the bytes from an S3 storage);
   * past it the request is a 503. It runs inside a bus request, so it stays below the gateway's BUS_TIMEOUT_MS.
   */
  @ToInt() @IsInt() @Min(500) @Max(60_000) FRAME_TIMEOUT_MS = 4000;

  /** Frames (ffmpeg child processes) one media-service renders at once; more requests wait their turn. */
  @ToInt() @IsInt() @Min(1) @Max(64) FRAME_CONCURRENCY = 2;

  /** One project's frames rendering at once (its other requests wait their turn). Unset: half of FRAME_CONCURRENCY, at least 1. */
  @ToInt() @IsOptional() @IsInt() @Min(1) @Max(64) FRAME_PROJECT_CONCURRENCY?: number;

  /** Storyboards (scene detection over a whole video, in the storyboard queue) one media-service computes at once. */
  @ToInt() @IsInt() @Min(1) @Max(64) STORYBOARD_CONCURRENCY = 1;

  /** How long one storyboard's scene detection may take; past it the storyboard is refused with that reason. */
  @ToInt() @IsInt() @Min(1000) @Max(3_600_000) STORYBOARD_TIMEOUT_MS = 300_000;

  /** `true` lets copies of media that trace outputs name fetch from private, loopback and link-local addresses (local development, tests). */
  @ToBool() @IsBoolean() OUTBOUND_ALLOW_PRIVATE = false;

  /** How long fetching a media a trace output names may take, the whole body included (past it the copy is retried, then failed). */
  @ToInt() @IsInt() @Min(1000) @Max(3_600_000) MEDIA_FETCH_TIMEOUT_MS = 300_000;

  /**
   * Distributed: how long a probe job's lock in Redis lasts unless renewed (it is, every half of
   * it, while the probe runs). A media-service that dies mid-probe leaves its job to be taken
   * up again once the lock has lapsed and a stalled-job check (as often as this) has seen it.
   */
  @ToInt() @IsInt() @Min(1000) @Max(600_000) PROBE_LOCK_MS = 30_000;
}

/** One project's share of a queue's `concurrency` slots: `configured`, else half of them (at least 1), so one project never holds them all. */
export function perProjectSlots(concurrency: number, configured: number | undefined): number {
  return Math.min(concurrency, configured ?? Math.max(1, Math.floor(concurrency / 2)));
}
