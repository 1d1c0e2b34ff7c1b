import { ClientKafka, KafkaOptions } from '@nestjs/microservices';
import type { KafkaConnection } from './kafka.options';
import { ensureTopics, replyTopic, requestTopic } from './kafka-topics';

/**
 * Nest's Kafka client with one reply topic for every pattern it sends (`<client>.reply`)
 * instead of a `<pattern>.reply` topic per pattern. Its reply consumer then fetches one
 * topic's partitions rather than those of every pattern (the gateway sends 32): each
 * fetch is cheaper, and the cluster has 31 fewer topics. Services answer on whatever
 * topic a request names (its `kafka_replyTopic` header), so only the caller differs.
 * Before it subscribes it creates its reply topic and the request topics it sends to
 * (with the settings the services create them with), so neither is left to auto-creation.
 */
export class OneReplyTopicClientKafka extends ClientKafka {
  private readonly sentPatterns: string[] = [];

  constructor(
    options: KafkaOptions['options'],
    private readonly replyTopic: string,
    private readonly topics?: { clientId: string; connection: KafkaConnection },
  ) {
    super(options ?? {});
  }

  override subscribeToResponseOf(pattern: unknown): void {
    if (typeof pattern === 'string') this.sentPatterns.push(pattern);
    if (!this.responsePatterns.includes(this.replyTopic)) super.subscribeToResponseOf(pattern);
  }

  override async bindTopics(): Promise<void> {
    if (this.topics) {
      const { clientId, connection } = this.topics;
      await ensureTopics(clientId, connection, [replyTopic(this.replyTopic), ...this.sentPatterns.map(requestTopic)], {
        groupId: this.groupId,
      });
    }
    await super.bindTopics();
  }

  protected override getResponsePatternName(): string {
    return this.replyTopic;
  }
}
