import { validateEnv } from '@cinetrace/config';
import { runMigrationStep } from '@cinetrace/persistence';
import { MediaServiceEnv } from './media-service.env';
import { mediaServiceStore } from './media-service.module';

// `node apps/media-service/dist/migrate.js`: brings media-service's schema up to date and exits (a Kubernetes Job runs it once).
runMigrationStep('media-service', () => mediaServiceStore(validateEnv(MediaServiceEnv)));
