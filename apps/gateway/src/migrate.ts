import { validateEnv } from '@cinetrace/config';
import { runMigrationStep } from '@cinetrace/persistence';
import { GatewayEnv } from './gateway.env';
import { gatewayStore } from './gateway.module';

// `node apps/gateway/dist/migrate.js`: brings gateway's schema up to date and exits (a Kubernetes Job runs it once).
runMigrationStep('gateway', () => gatewayStore(validateEnv(GatewayEnv)));
