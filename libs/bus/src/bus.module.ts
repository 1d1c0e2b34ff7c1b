import { DynamicModule, Module } from '@nestjs/common';
import { BusClient } from './bus.client';
import { InProcessBroker } from './in-process/in-process.broker';
import { InProcessClient } from './in-process/in-process.client';
import { KafkaProbe } from './kafka/kafka-probe';
import { OneReplyTopicClientKafka } from './kafka/one-reply-topic.client';
import { KafkaConnection, kafkaClientOptions } from './kafka/kafka.options';

export type BusClientConfig =
  | { transport: 'in-process'; broker: InProcessBroker; timeoutMs: number }
  | {
      transport: 'kafka';
      clientId: string;
      kafka: KafkaConnection;
      timeoutMs: number;
      /** Every pattern this client sends (their replies all come back on `<clientId>.reply`). */
      patterns: readonly string[];
    };

/** Provides a BusClient over the configured transport; same API in both run modes. */
@Module({})
export class BusModule {
  static forClient(config: BusClientConfig): DynamicModule {
    return {
      module: BusModule,
      global: true,
      providers: [{ provide: BusClient, useFactory: () => createBusClient(config) }],
      exports: [BusClient],
    };
  }
}

/** A BusClient outside Nest's modules (a worker): it connects on its first request; close it with onApplicationShutdown. */
export function createBusClient(config: BusClientConfig): BusClient {
  if (config.transport === 'in-process') {
    return new BusClient(new InProcessClient(config.broker), config.timeoutMs);
  }
  const options = kafkaClientOptions(config.clientId, config.kafka);
  const client = new OneReplyTopicClientKafka(options, `${config.clientId}.reply`, { clientId: config.clientId, connection: config.kafka });
  for (const pattern of config.patterns) client.subscribeToResponseOf(pattern);
  return new BusClient(client, config.timeoutMs, new KafkaProbe(config.clientId, config.kafka));
}
