import { DynamicModule, Module } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { BusClient } from './bus.client';
import { InProcessBroker } from './in-process/in-process.broker';
import { InProcessClient } from './in-process/in-process.client';
import { KafkaConnection, kafkaClientOptions } from './kafka/kafka.options';

export type BusClientConfig =
  | { transport: 'in-process'; broker: InProcessBroker; timeoutMs: number }
  | {
      transport: 'kafka';
      clientId: string;
      kafka: KafkaConnection;
      timeoutMs: number;
      /** Every pattern this client sends: ClientKafka must subscribe to their replies before connecting. */
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

function createBusClient(config: BusClientConfig): BusClient {
  if (config.transport === 'in-process') {
    return new BusClient(new InProcessClient(config.broker), config.timeoutMs);
  }
  const options = kafkaClientOptions(config.clientId, config.kafka);
  const client = new ClientKafka(options!);
  for (const pattern of config.patterns) client.subscribeToResponseOf(pattern);
  return new BusClient(client, config.timeoutMs, kafkaProbe(options!.client!));
}

/** Readiness probe: a metadata round-trip through a separate admin connection. */
function kafkaProbe(clientConfig: ConstructorParameters<typeof Kafka>[0]): () => Promise<boolean> {
  const admin = new Kafka({ ...clientConfig, clientId: `${clientConfig.clientId}-probe`, retry: { retries: 0 } }).admin();
  return async () => {
    const probe = (async () => {
      await admin.connect();
      await admin.describeCluster();
      return true;
    })();
    const deadline = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref());
    return Promise.race([probe, deadline]);
  };
}
