import { GatewayBaseEnv, ToBool, ToInt } from '@cinetrace/config';
import { DEFAULT_MAX_JSON_DEPTH } from '@cinetrace/validation';
import { IsBoolean, IsInt, IsString, Max, Min, ValidateBy } from 'class-validator';
import { availableParallelism } from 'node:os';

/** Environment of the gateway; validated at boot. Its store holds idempotency records and the cursor secret. */
export class GatewayEnv extends GatewayBaseEnv {
  /** The HTTP port: the API, the console, OTLP/HTTP, and the probes and metrics. */
  @ToInt() @IsInt() @Min(0) @Max(65535) PORT = 3000;
  /** The address the HTTP and OTLP/gRPC ports are bound to. */
  @IsString() HOST = '0.0.0.0';

  /**
   * OTLP/gRPC trace export listens here (4317: where collectors and SDKs export by default);
   * 0 turns it off. On HOST, beside the HTTP port.
   */
  @ToInt() @IsInt() @Min(0) @Max(65535) OTLP_GRPC_PORT = 4317;

  /**
   * Worker threads that decode, map and validate OTLP exports off the event loop. Default:
   * one per core but one (the loop's), at least 1, at most 4. In a container, set it to the
   * CPU limit: Node sees the host's cores.
   * @default cores − 1, at least 1, at most 4
   */
  @ToInt() @IsInt() @Min(1) @Max(64) OTLP_DECODE_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

  /**
   * OTLP exports (HTTP and gRPC) one project may have in flight at once through a gateway,
   * whatever their size; one more is answered 429 with Retry-After before its body is read.
   * An OpenTelemetry Collector exports 10 at a time by default (sending_queue.num_consumers).
   */
  @ToInt() @IsInt() @Min(1) @Max(4096) OTLP_PROJECT_EXPORTS = 16;

  /** How long a request waits for a service's reply before answering 503. */
  @ToInt() @IsInt() @Min(100) @Max(120000) BUS_TIMEOUT_MS = 5000;

  /** The largest request body; a larger one is answered 413. */
  @ToInt() @IsInt() @Min(1024) @Max(1024 * 1024 * 1024) MAX_BODY_BYTES = 5 * 1024 * 1024;

  /**
   * How deep objects and arrays may nest in a JSON body or in `args` (the document itself
   * is level 1). Deeper JSON is a 400 before it is parsed. Capped at 256: the services
   * walk stored JSON recursively (validation, the bus's JSON round-trip), safe far beyond it.
   */
  @ToInt() @IsInt() @Min(16) @Max(256) MAX_JSON_DEPTH = DEFAULT_MAX_JSON_DEPTH;

  // Time limits on slow clients, as a reverse proxy sets them (nginx: 60 s for the headers, 75 s of keep-alive).
  /** A client still sending its headers after this long gets 408 and its connection is closed. */
  @ToInt() @IsInt() @Min(100) @Max(3_600_000) HTTP_HEADERS_TIMEOUT_MS = 60_000;
  /** A client still sending its whole request (headers and body) after this long gets 408; 120 s lets 5 MiB through at 350 kbit/s. */
  @ToInt() @IsInt() @Min(100) @Max(3_600_000) @NotLessThan('HTTP_HEADERS_TIMEOUT_MS') HTTP_REQUEST_TIMEOUT_MS = 120_000;
  /** An idle keep-alive connection is closed after this long: above a load balancer's idle timeout (60 s on AWS ALB), so the balancer closes first. */
  @ToInt() @IsInt() @Min(100) @Max(3_600_000) HTTP_KEEP_ALIVE_TIMEOUT_MS = 72_000;

  /** How long a resolved API key / project key pair is trusted without asking project-service again. */
  @ToInt() @IsInt() @Min(0) @Max(300000) AUTH_CACHE_TTL_MS = 5000;

  /**
   * Distributed mode: trace POSTs answer 503 with Retry-After while trace-ingest is more
   * than this many bytes of traces behind on the trace topic (0: never). Keep it under
   * what the topic retains (retention.bytes per partition times its partitions), so no
   * accepted trace can age out unread; it also bounds how long a trace takes to become
   * readable. 64 MiB: 8,000 traces of 8 KB.
   */
  @ToInt() @IsInt() @Min(0) @Max(1024 * 1024 * 1024 * 1024) TRACE_INGEST_MAX_LAG_BYTES = 64 * 1024 * 1024;

  /** `true` lets `POST /api/v1/media { url }` fetch from private, loopback and link-local addresses (local development, tests). */
  @ToBool() @IsBoolean() OUTBOUND_ALLOW_PRIVATE = false;

  /** How long fetching a media `{ url }` may take, the whole body included (past it: 400 naming `url`, nothing stored). */
  @ToInt() @IsInt() @Min(1000) @Max(3_600_000) MEDIA_FETCH_TIMEOUT_MS = 300_000;

  /**
   * Media one project may be storing at once through a gateway (`POST /api/v1/media`, bytes or
   * `{ url }`); one more is answered 429 with Retry-After before its body is read.
   */
  @ToInt() @IsInt() @Min(1) @Max(1024) MEDIA_PROJECT_UPLOADS = 4;

  /**
   * How long `GET /api/v1/media/{id}/storyboard` waits for a storyboard being computed (media-service's
   * storyboard queue) before it answers 503 with Retry-After; the computation goes on, and a later request finds it.
   */
  @ToInt() @IsInt() @Min(0) @Max(120_000) STORYBOARD_WAIT_MS = 20_000;
}

/** At least another variable of the same environment (Node requires headers ≤ request timeout). */
function NotLessThan(other: string) {
  return ValidateBy({
    name: 'notLessThan',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value >= ((args?.object as Record<string, unknown>)[other] as number),
      defaultMessage: () => `must not be less than ${other}`,
    },
  });
}
