import { busServiceProcess, runServiceProcess } from '@cinetrace/bootstrap';
import { kafkaServerOptions } from '@cinetrace/bus';
import { ProjectServiceEnv } from './project-service.env';
import { PROJECT_SERVICE } from './project-service.module';
import { startProjectService } from './start-project-service';

runServiceProcess({
  name: PROJECT_SERVICE,
  env: ProjectServiceEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL', 'SECRETS_KEY'],
  start: async (env, kafka) => {
    const app = await startProjectService(env, kafkaServerOptions(PROJECT_SERVICE, kafka));
    return busServiceProcess(PROJECT_SERVICE, app, kafka);
  },
});
