import { ToInt } from '@cinetrace/config';
import type { LogLevel } from '@cinetrace/logging';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Environment of benchmark-service; validated at boot (see validateEnv). */
export class BenchmarkServiceEnv {
  /** PostgreSQL connection string; without it the service keeps its data in SQLite under DATA_DIR. */
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString() DATA_DIR = './data';

  /** Comma-separated host:port list; required in the distributed mode. */
  @IsOptional() @IsString() KAFKA_BROKERS?: string;

  @ToInt() @IsInt() @Min(1) @Max(5000) KAFKA_MAX_WAIT_MS = 20;

  /** `true` lets targets and scorers call private, loopback and link-local addresses (local development, tests). */
  @IsIn(['true', 'false']) OUTBOUND_ALLOW_PRIVATE: 'true' | 'false' = 'false';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: LogLevel = 'info';
}
