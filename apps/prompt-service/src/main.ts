import { kafkaServerOptions } from '@cinetrace/bus';
import { requireVariables, validateEnv } from '@cinetrace/config';
import { PromptServiceEnv } from './prompt-service.env';
import { PROMPT_SERVICE } from './prompt-service.module';
import { startPromptService } from './start-prompt-service';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(PromptServiceEnv);
  const kafka = { brokers: env.KAFKA_BROKERS!.split(','), maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS };
  const app = await startPromptService(env, kafkaServerOptions(PROMPT_SERVICE, kafka));
  app.enableShutdownHooks();
}

main().catch((err: Error) => {
  console.error(`prompt-service failed to start: ${err.message}`);
  process.exit(1);
});
