import { busServiceProcess, runServiceProcess } from '@cinetrace/bootstrap';
import { kafkaServerOptions } from '@cinetrace/bus';
import { PromptServiceEnv } from './prompt-service.env';
import { PROMPT_SERVICE } from './prompt-service.module';
import { startPromptService } from './start-prompt-service';

runServiceProcess({
  name: PROMPT_SERVICE,
  env: PromptServiceEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL'],
  start: async (env, kafka) => {
    const app = await startPromptService(env, kafkaServerOptions(PROMPT_SERVICE, kafka));
    return busServiceProcess(PROMPT_SERVICE, app, kafka);
  },
});
