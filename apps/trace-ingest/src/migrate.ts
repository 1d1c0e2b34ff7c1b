import { validateEnv } from '@cinetrace/config';
import { runMigrationStep } from '@cinetrace/persistence';
import { TraceIngestEnv } from './trace-ingest.env';
import { traceIngestStore } from './trace-ingest.module';

// `node apps/trace-ingest/dist/migrate.js`: brings trace-ingest's schema up to date and exits (a Kubernetes Job runs it once).
runMigrationStep('trace-ingest', () => traceIngestStore(validateEnv(TraceIngestEnv)));
