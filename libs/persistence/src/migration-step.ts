import { withoutUrlCredentials } from '@cinetrace/logging';
import { migrateServiceDatabase, type ServiceDataSourceSpec } from './data-source.factory';

/**
 * The body of an app's `migrate.js`: runs its pending migrations, says so in one line and
 * exits 0; on failure names the reason (never a stack trace or the connection string) and exits 1.
 */
export function runMigrationStep(service: string, spec: () => ServiceDataSourceSpec): void {
  Promise.resolve()
    .then(spec)
    .then(migrateServiceDatabase)
    .then(
      () => {
        console.log(`${service}: migrations are up to date`);
        process.exit(0);
      },
      (err: Error) => {
        console.error(`${service}: migrating failed: ${withoutUrlCredentials(String(err?.message ?? err))}`);
        process.exit(1);
      },
    );
}
