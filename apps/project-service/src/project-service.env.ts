import { StoreAndBusEnv, ToInt } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';

/** Environment of project-service; validated at boot (see validateEnv). */
export class ProjectServiceEnv extends StoreAndBusEnv {
  /** A key made to exist for the bootstrap organization at every start. */
  @IsOptional() @IsString() @MinLength(16, { message: 'must be at least 16 characters' })
  BOOTSTRAP_API_KEY?: string;

  /** When set, GET /healthz and /readyz are served on this port: the probes of an orchestrator. */
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}
