import { ToBool, ToInt } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Environment of prompt-service; validated at boot (see validateEnv). */
export class PromptServiceEnv {
  /** PostgreSQL connection string; without it the service keeps its data in SQLite under DATA_DIR. */
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString() DATA_DIR = './data';

  /** Run pending migrations at boot; false where a separate step runs them (migrate.js, a Kubernetes Job). */
  @ToBool() @IsBoolean() MIGRATE_ON_START = true;

  /** Comma-separated host:port list; required in the distributed mode. */
  @IsOptional() @IsString() KAFKA_BROKERS?: string;

  @ToInt() @IsInt() @Min(1) @Max(5000) KAFKA_MAX_WAIT_MS = 20;

  /** When set, GET /healthz and /readyz are served on this port: the probes of an orchestrator. */
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}
