import { validateEnv } from '@cinetrace/config';
import { runMigrationStep } from '@cinetrace/persistence';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { benchmarkServiceStore } from './benchmark-service.module';

// `node apps/benchmark-service/dist/migrate.js`: brings benchmark-service's schema up to date and exits (a Kubernetes Job runs it once).
runMigrationStep('benchmark-service', () => benchmarkServiceStore(validateEnv(BenchmarkServiceEnv)));
