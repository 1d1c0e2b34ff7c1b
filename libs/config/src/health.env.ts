import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { EnvClass } from './env-class';
import { ToInt } from './env-types';

/** The probes block of a process that serves no HTTP API of its own (the gateway serves them on PORT). */
export function withHealthPort<B extends EnvClass>(Base: B) {
  class HealthPortEnv extends Base {
    /** When set, GET /healthz, /readyz and /metrics are served on this port: the probes of an orchestrator. */
    @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;
  }
  return HealthPortEnv;
}
