import { KafkaOptions, Transport } from '@nestjs/microservices';
import type { KafkaConnectionSettings } from '@cinetrace/config';
import { logLevel, SASLOptions } from 'kafkajs';
import { JsonValueSerializer } from './json-value.serializer';
import { kafkaLogCreator } from './kafka-log-creator';

/**
 * How a client reaches the brokers (addresses, fetch wait, TLS, SASL): what
 * kafkaConnectionFromEnv (@cinetrace/config) builds from the environment.
 */
export type KafkaConnection = KafkaConnectionSettings;

/**
 * kafkajs retries are kept short so that a broker outage surfaces as a fast 503
 * instead of a request hanging for tens of seconds.
 */
export function kafkaClientConfig(clientId: string, kafka: KafkaConnection) {
  return {
    clientId,
    brokers: kafka.brokers,
    // Every client of the app (producers, consumers, admins, probes) comes through here with the same TLS and SASL.
    ...(kafka.ssl && { ssl: kafka.ssl }),
    ...(kafka.sasl && { sasl: kafka.sasl as SASLOptions }),
    logLevel: logLevel.ERROR,
    logCreator: kafkaLogCreator,
    connectionTimeout: 3000,
    requestTimeout: 5000,
    retry: { initialRetryTime: 100, maxRetryTime: 1000, retries: 3 },
  };
}

/**
 * A member that died (a killed replica) leaves its group after 10 s instead of kafkajs'
 * 30 s, so the survivors' rebalance, and with it request-reply, resumes sooner.
 */
export const KAFKA_GROUP_TIMING = { sessionTimeout: 10000, rebalanceTimeout: 10000, heartbeatInterval: 1000 };

/**
 * How a service's request consumer runs: offsets are committed once a second at a batch's end
 * (as a caller's replies are, below), and TopicCreatingServerKafka commits every request that
 * may write once it has taken it, before it takes the next one. A write whose offset is not
 * committed is read again after a restart or a rebalance and run a second time (a project
 * would be created twice); a read run again changes nothing.
 */
export const KAFKA_REQUEST_CONSUMER_RUN = { partitionsConsumedConcurrently: 4, autoCommitInterval: 1000 };

/**
 * How a caller's reply consumer runs. It commits once a second (as Kafka's own clients do
 * every 5 s), not after every batch: an OffsetCommit is slow on Apache Kafka 4 (its group
 * coordinator lingers on appends) and kafkajs waited for it before its next fetch, so every
 * reply waited for the previous one's commit (patches/kafkajs+2.2.4.patch makes kafkajs
 * honour the interval at a batch's end). A reply read again after a restart finds nobody
 * waiting for it and is dropped.
 */
export const KAFKA_REPLY_CONSUMER_RUN = { partitionsConsumedConcurrently: 4, autoCommitInterval: 1000 };

/** Nest's ServerKafka options for `service`. */
export function kafkaServerSettings(service: string, kafka: KafkaConnection): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: kafkaClientConfig(service, kafka),
      consumer: {
        groupId: service,
        maxWaitTimeInMs: kafka.maxWaitTimeInMs,
        allowAutoTopicCreation: false,
        ...KAFKA_GROUP_TIMING,
        // A consumer that loses its broker keeps retrying until it comes back.
        retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: Number.MAX_SAFE_INTEGER },
      },
      producer: { allowAutoTopicCreation: false },
      subscribe: { fromBeginning: false },
      run: { ...KAFKA_REQUEST_CONSUMER_RUN }, // a copy: Nest assigns its handler into it
      serializer: new JsonValueSerializer(),
    },
  };
}

/** Options for a caller (Nest's ClientKafka; replies come back on `<clientId>.reply`, see OneReplyTopicClientKafka). */
export function kafkaClientOptions(clientId: string, kafka: KafkaConnection): KafkaOptions['options'] {
  return {
    client: kafkaClientConfig(clientId, kafka),
    consumer: {
      groupId: clientId,
      maxWaitTimeInMs: kafka.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
      ...KAFKA_GROUP_TIMING,
      retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: Number.MAX_SAFE_INTEGER },
    },
    producer: { allowAutoTopicCreation: false },
    send: { acks: -1 },
    run: { ...KAFKA_REPLY_CONSUMER_RUN }, // a copy: Nest assigns its handler into it
    serializer: new JsonValueSerializer(),
  };
}
