import { KafkaProbe, kafkaServerOptions } from '@cinetrace/bus';
import { kafkaConnectionFromEnv, requireVariables, validateEnv } from '@cinetrace/config';
import { superviseProcess } from '@cinetrace/health';
import { withoutUrlCredentials } from '@cinetrace/logging';
import { storeAnswers } from '@cinetrace/persistence';
import { collectProcessMetrics } from '@cinetrace/metrics';
import { Patterns } from '@cinetrace/contracts';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PromptServiceEnv } from './prompt-service.env';
import { PROMPT_SERVICE } from './prompt-service.module';
import { startPromptService } from './start-prompt-service';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL'], 'in the distributed mode');
  const env = validateEnv(PromptServiceEnv);
  // Served on HEALTH_PORT's /metrics with the work metrics of this app.
  collectProcessMetrics(PROMPT_SERVICE);
  const kafka = kafkaConnectionFromEnv(env);
  const app = await startPromptService(env, kafkaServerOptions(PROMPT_SERVICE, kafka), {
    transport: 'kafka',
    clientId: `${PROMPT_SERVICE}-client`,
    kafka,
    timeoutMs: env.BUS_TIMEOUT_MS,
    patterns: [Patterns.RunsOfPrompt],
  });
  const kafkaProbe = new KafkaProbe(PROMPT_SERVICE, kafka);
  await superviseProcess({
    logger: new Logger(PROMPT_SERVICE),
    healthPort: env.HEALTH_PORT,
    checks: { store: storeAnswers(app.get(DataSource)), bus: kafkaProbe.reachable },
    // Nest stops the consumers (each finishes and commits the batch in hand), then closes the store.
    close: () => app.close().finally(() => kafkaProbe.close()),
  });
}

main().catch((err: Error) => {
  console.error(`prompt-service failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
