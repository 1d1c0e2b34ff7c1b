import { Logger } from '@nestjs/common';
import { KafkaContext, KafkaOptions, MessageHandler, OutgoingResponse, ServerKafka } from '@nestjs/microservices';
import type { EachMessagePayload, RecordMetadata } from 'kafkajs';
import type { Consumer } from '@nestjs/microservices/external/kafka.interface';
import { READ_ONLY_PATTERNS, type Pattern } from '@cinetrace/contracts';
import { checkedHandler } from '../bus-request-check';
import type { KafkaConnection } from './kafka.options';
import { ensureTopics, PATTERN_HEADER, requestTopic, serviceRequestTopic } from './kafka-topics';

/**
 * Nest's Kafka server on the service's one request topic (`<service>.requests`, see
 * serviceRequestTopic), which it creates with the documented settings before it subscribes
 * instead of relying on the broker auto-creating it. Each record names its pattern in a
 * header, and is handled as Nest handles a record on a topic of that name. A reply it cannot
 * send (the broker down) is logged and dropped: its caller times out with a 503, and the
 * service stays up instead of dying of an unhandled rejection. A request whose shape is not
 * its pattern's (bus-request-check.ts) is answered a validation error, never handled.
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

  /** The request topic this server reads. */
  get requestTopic(): string {
    return serviceRequestTopic(this.service);
  }

  /**
   * Every request handler behind busRequestRefusal: any process that reaches the broker can
   * write to a request topic, so a request's shape is checked before its handler runs.
   */
  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    super.addHandler(pattern, isEventHandler ? callback : checkedHandler(this.normalizePattern(pattern as string), callback), isEventHandler, extras);
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    await ensureTopics(this.service, this.connection, [requestTopic(this.requestTopic)], { groupId: this.groupId });
    await consumer.subscribe({ ...this.options.subscribe, topics: [this.requestTopic] });
    await consumer.run({ ...this.options.run, eachMessage: this.getMessageHandler() });
  }

  /**
   * A record without a pattern is handled as one on the request topic itself: no handler, so
   * its caller hears so. Once handled, a request that may have written is committed before
   * the partition's next record (see READ_ONLY_PATTERNS); reads wait for the periodic commit.
   */
  override async handleMessage(payload: EachMessagePayload): Promise<unknown> {
    const header = payload.message.headers?.[PATTERN_HEADER];
    const pattern = Buffer.isBuffer(header) ? header.toString() : typeof header === 'string' ? header : undefined;
    const answered: unknown = await super.handleMessage({ ...payload, topic: pattern ?? payload.topic });
    if (!READ_ONLY_PATTERNS.has(pattern as Pattern)) await this.commitThrough(payload);
    return answered;
  }

  /**
   * Commits the offset after this record. A failed commit is only logged: the request has
   * run, and failing the record would run it again; the next commit covers it.
   */
  private async commitThrough({ topic, partition, message }: EachMessagePayload): Promise<void> {
    try {
      await this.consumer?.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
    } catch (err) {
      this.replyLogger.warn(`Could not commit request offset ${message.offset} of ${topic}[${partition}] (${(err as Error)?.message ?? err}); the next commit covers it`);
    }
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
