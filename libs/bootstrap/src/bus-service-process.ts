import { KafkaProbe } from '@cinetrace/bus';
import type { KafkaConnectionSettings } from '@cinetrace/config';
import type { DependencyChecks } from '@cinetrace/health';
import { storeAnswers } from '@cinetrace/persistence';
import type { INestMicroservice } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RunningProcess } from './run-service-process';

/**
 * A service that answers on Kafka with a store of its own: ready while its store and the
 * brokers answer (and whatever else `checks` adds); stopped by Nest, which stops the
 * consumers (each finishes and commits the batch in hand) and then closes the store.
 */
export function busServiceProcess(name: string, app: INestMicroservice, kafka: KafkaConnectionSettings, checks: DependencyChecks = {}): RunningProcess {
  const kafkaProbe = new KafkaProbe(name, kafka);
  return {
    checks: { store: storeAnswers(app.get(DataSource)), bus: kafkaProbe.reachable, ...checks },
    close: () => app.close().finally(() => kafkaProbe.close()),
  };
}
