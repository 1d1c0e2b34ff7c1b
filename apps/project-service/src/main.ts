import { KafkaProbe, kafkaServerOptions } from '@cinetrace/bus';
import { kafkaConnectionFromEnv, requireVariables, validateEnv } from '@cinetrace/config';
import { superviseProcess } from '@cinetrace/health';
import { withoutUrlCredentials } from '@cinetrace/logging';
import { storeAnswers } from '@cinetrace/persistence';
import { collectProcessMetrics } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';
import { Patterns } from '@cinetrace/contracts';
import { DataSource } from 'typeorm';
import { ProjectServiceEnv } from './project-service.env';
import { PROJECT_SERVICE } from './project-service.module';
import { startProjectService } from './start-project-service';

async function main(): Promise<void> {
  requireVariables(['KAFKA_BROKERS', 'DATABASE_URL', 'SECRETS_KEY'], 'in the distributed mode');
  const env = validateEnv(ProjectServiceEnv);
  // Served on HEALTH_PORT's /metrics with the work metrics of this app.
  collectProcessMetrics(PROJECT_SERVICE);
  const kafka = kafkaConnectionFromEnv(env);
  const app = await startProjectService(env, kafkaServerOptions(PROJECT_SERVICE, kafka), {
    transport: 'kafka',
    clientId: `${PROJECT_SERVICE}-client`,
    kafka,
    timeoutMs: env.BUS_TIMEOUT_MS,
    patterns: [Patterns.SecretReferences],
  });
  const kafkaProbe = new KafkaProbe(PROJECT_SERVICE, kafka);
  await superviseProcess({
    logger: new Logger(PROJECT_SERVICE),
    healthPort: env.HEALTH_PORT,
    checks: { store: storeAnswers(app.get(DataSource)), bus: kafkaProbe.reachable },
    // Nest stops the consumers (each finishes and commits the batch in hand), then closes the store.
    close: () => app.close().finally(() => kafkaProbe.close()),
  });
}

main().catch((err: Error) => {
  console.error(`project-service failed to start: ${withoutUrlCredentials(err.message)}`);
  process.exit(1);
});
