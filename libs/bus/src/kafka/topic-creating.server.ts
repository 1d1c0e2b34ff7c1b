import { Logger } from '@nestjs/common';
import { KafkaContext, KafkaOptions, OutgoingResponse, ServerKafka } from '@nestjs/microservices';
import type { RecordMetadata } from 'kafkajs';
import type { Consumer } from '@nestjs/microservices/external/kafka.interface';
import type { KafkaConnection } from './kafka.options';
import { ensureTopics, requestTopic } from './kafka-topics';

/**
 * Nest's Kafka server that creates its request topics (one per pattern it answers) with
 * the documented settings before it subscribes to them, instead of relying on the broker
 * auto-creating them as the first request or subscription arrives. A reply it cannot send
 * (the broker down) is logged and dropped: its caller times out with a 503, and the
 * service stays up instead of dying of an unhandled rejection.
 */
export class TopicCreatingServerKafka extends ServerKafka {
  private readonly replyLogger = new Logger('ServerKafka');

  constructor(
    options: KafkaOptions['options'],
    private readonly service: string,
    private readonly connection: KafkaConnection,
  ) {
    super(options ?? {});
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    await ensureTopics(this.service, this.connection, [...this.messageHandlers.keys()].map(requestTopic), { groupId: this.groupId });
    await super.bindEvents(consumer);
  }

  override sendMessage(
    message: OutgoingResponse,
    replyTopic: string,
    replyPartition: string | undefined | null,
    correlationId: string,
    context: KafkaContext,
  ): Promise<RecordMetadata[]> {
    return super.sendMessage(message, replyTopic, replyPartition, correlationId, context).catch((err: unknown) => {
      this.replyLogger.warn(`A reply to '${replyTopic}' could not be sent (${(err as Error)?.message ?? err}); its caller times out`);
      return [];
    });
  }
}
