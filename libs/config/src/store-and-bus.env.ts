import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import { EmptyAsUnset, ToBool } from './env-types';
import { KafkaEnv } from './kafka.env';

/** What every app with a database and the bus reads: its store, its migrations, Kafka. Apps extend it. */
export class StoreAndBusEnv extends KafkaEnv {
  /**
   * PostgreSQL connection string (the app keeps to its own schema); without it, SQLite under DATA_DIR.
   * Its `sslmode` is honoured as libpq does (see postgresConnection).
   */
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  /** PEM file of the CA DATABASE_URL's server certificate is checked against (sslmode verify-ca, verify-full). */
  @EmptyAsUnset() @IsOptional() @IsString() DATABASE_SSL_CA_FILE?: string;

  @IsString() DATA_DIR = './data';

  /** Run pending migrations at boot; false where a separate step runs them (migrate.js, a Kubernetes Job). */
  @ToBool() @IsBoolean() MIGRATE_ON_START = true;
}
