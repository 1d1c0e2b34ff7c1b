import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import type { EnvClass } from './env-class';
import { EmptyAsUnset, ToBool } from './env-types';

/** The store block: where an app with a database keeps its data, and who migrates it. */
export function withStore<B extends EnvClass>(Base: B) {
  class StoreEnv extends Base {
    /**
     * PostgreSQL connection string (the app keeps to its own schema); without it, SQLite under DATA_DIR.
     * Its `sslmode` is honoured as libpq does (see postgresConnection).
     */
    @IsOptional()
    @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
    DATABASE_URL?: string;

    /** PEM file of the CA DATABASE_URL's server certificate is checked against (sslmode verify-ca, verify-full). */
    @EmptyAsUnset() @IsOptional() @IsString() DATABASE_SSL_CA_FILE?: string;

    /** SQLite files (all-in-one), the bootstrap key file, the generated secrets key and, by default, the media files. */
    @IsString() DATA_DIR = './data';

    /** Run pending migrations at boot; false where a separate step runs them (migrate.js, a Kubernetes Job). */
    @ToBool() @IsBoolean() MIGRATE_ON_START = true;
  }
  return StoreEnv;
}
