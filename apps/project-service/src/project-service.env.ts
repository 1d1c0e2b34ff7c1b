import { StoreAndBusEnv, ToInt, ToList } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { ArrayMaxSize, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

/** Environment of project-service; validated at boot (see validateEnv). */
export class ProjectServiceEnv extends StoreAndBusEnv {
  /** A key made to exist for the bootstrap organization at every start. */
  @IsOptional() @IsString() @MinLength(16, { message: 'must be at least 16 characters' })
  BOOTSTRAP_API_KEY?: string;

  /**
   * Ids of API keys (`key_…`, comma-separated) that are instance admins besides the
   * bootstrap key: they may create organizations. Ids, never keys, so the list is no secret.
   */
  @ToList()
  @ArrayMaxSize(100)
  @Matches(/^key_[0-9a-z]{26}$/, { each: true, message: 'must list API key ids (key_ and 26 characters), comma-separated' })
  INSTANCE_ADMIN_KEY_IDS: string[] = [];

  /** When set, GET /healthz and /readyz are served on this port: the probes of an orchestrator. */
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}
