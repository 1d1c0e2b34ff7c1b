import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { ToBool, ToInt } from './env-types';

/** What every app with a database and the bus reads: its store, its migrations, Kafka. Apps extend it. */
export class StoreAndBusEnv {
  /** PostgreSQL connection string (the app keeps to its own schema); without it, SQLite under DATA_DIR. */
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString() DATA_DIR = './data';

  /** Run pending migrations at boot; false where a separate step runs them (migrate.js, a Kubernetes Job). */
  @ToBool() @IsBoolean() MIGRATE_ON_START = true;

  /** Comma-separated host:port list; required in the distributed mode. */
  @IsOptional() @IsString() KAFKA_BROKERS?: string;

  /**
   * Longest a consumer's fetch waits for records. Kafka answers a fetch as soon as records
   * arrive, so a long wait costs no latency there and saves idle fetches (Kafka's own
   * default is 500 ms).
   */
  @ToInt() @IsInt() @Min(1) @Max(5000) KAFKA_MAX_WAIT_MS = 500;
}
