import { StoreAndBusEnv, ToInt } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Environment of prompt-service; validated at boot (see validateEnv). */
export class PromptServiceEnv extends StoreAndBusEnv {
  /** How long asking benchmark-service (the runs a release's gate is judged by) may take. */
  @ToInt() @IsInt() @Min(100) @Max(60_000) BUS_TIMEOUT_MS = 5000;

  /** When set, GET /healthz and /readyz are served on this port: the probes of an orchestrator. */
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}
