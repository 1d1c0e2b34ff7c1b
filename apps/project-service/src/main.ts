import { kafkaServerOptions } from '@cinetrace/bus';
import { requireVariables, validateEnv } from '@cinetrace/config';
import { ProjectServiceEnv } from './project-service.env';
import { PROJECT_SERVICE } from './project-service.module';
import { startProjectService } from './start-project-service';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(ProjectServiceEnv);
  const kafka = { brokers: env.KAFKA_BROKERS!.split(','), maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS };
  const app = await startProjectService(env, kafkaServerOptions(PROJECT_SERVICE, kafka));
  app.enableShutdownHooks();
}

main().catch((err: Error) => {
  console.error(`project-service failed to start: ${err.message}`);
  process.exit(1);
});
