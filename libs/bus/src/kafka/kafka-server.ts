import type { CustomStrategy } from '@nestjs/microservices';
import { kafkaServerSettings, type KafkaConnection } from './kafka.options';
import { TopicCreatingServerKafka } from './topic-creating.server';

/**
 * The transport of a service answering requests: Nest's ServerKafka (group `<service>-server`)
 * on the service's one request topic, which it creates before subscribing (see TopicCreatingServerKafka).
 */
export function kafkaServerOptions(service: string, kafka: KafkaConnection): CustomStrategy {
  return { strategy: new TopicCreatingServerKafka(kafkaServerSettings(service, kafka).options, service, kafka) };
}
