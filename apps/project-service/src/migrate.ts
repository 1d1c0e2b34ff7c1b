import { validateEnv } from '@cinetrace/config';
import { runMigrationStep } from '@cinetrace/persistence';
import { ProjectServiceEnv } from './project-service.env';
import { projectServiceStore } from './project-service.module';

// `node apps/project-service/dist/migrate.js`: brings project-service's schema up to date and exits (a Kubernetes Job runs it once).
runMigrationStep('project-service', () => projectServiceStore(validateEnv(ProjectServiceEnv)));
