import { validateEnv } from '@cinetrace/config';
import { runMigrationStep } from '@cinetrace/persistence';
import { PromptServiceEnv } from './prompt-service.env';
import { promptServiceStore } from './prompt-service.module';

// `node apps/prompt-service/dist/migrate.js`: brings prompt-service's schema up to date and exits (a Kubernetes Job runs it once).
runMigrationStep('prompt-service', () => promptServiceStore(validateEnv(PromptServiceEnv)));
