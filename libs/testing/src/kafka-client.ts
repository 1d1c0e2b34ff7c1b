import { KafkaEnv, kafkaConnectionFromEnv, validateEnv } from '@cinetrace/config';
import { Kafka, KafkaConfig, logLevel, SASLOptions } from 'kafkajs';

/**
 * A kafkajs client of a test, connecting as the apps do: the KAFKA_* variables of `env`
 * (a broker's `env`, a stack's `kafkaEnv`) through the apps' own kafkaConnectionFromEnv, so a
 * broker with TLS and SASL is read with them. `options.retry`: e.g. none, where a refusal is the answer.
 */
export function testKafka(clientId: string, env: Record<string, string>, options: Pick<KafkaConfig, 'retry'> = {}): Kafka {
  const { brokers, ssl, sasl } = kafkaConnectionFromEnv(validateEnv(KafkaEnv, env));
  return new Kafka({ clientId, brokers, ssl, sasl: sasl as SASLOptions | undefined, logLevel: logLevel.NOTHING, ...options });
}
