import { Logger } from '@nestjs/common';
import { KafkaContext, KafkaOptions, MessageHandler, OutgoingResponse, ServerKafka } from '@nestjs/microservices';
import type { EachMessagePayload, RecordMetadata } from 'kafkajs';
import type { Consumer } from '@nestjs/microservices/external/kafka.interface';
import { READ_ONLY_PATTERNS, type Pattern } from '@cinetrace/contracts';
import { checkedHandler } from '../bus-request-check';
import type { KafkaConnection } from './kafka.options';
import { ensureTopics, PATTERN_HEADER, requestTopic, serviceRequestTopic } from './kafka-topics';
import { RequestsInFlight } from './requests-in-flight';

/** Requests one service process handles at once when BUS_MAX_IN_FLIGHT is not given. */
export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 128;

/**
 * Nest's Kafka server on the service's one request topic (`<service>.requests`, see
 * serviceRequestTopic), which it creates with the documented settings before it subscribes
 * instead of relying on the broker auto-creating it. Each record names its pattern in a
 * header, and is handled as Nest handles a record on a topic of that name. A reply it cannot
 * send (the broker down) is logged and dropped: its caller times out with a 503, and the
 * service stays up instead of dying of an unhandled rejection. A request whose shape is not
 * its pattern's (bus-request-check.ts) is answered a validation error, never handled.
 *
 * A request is started and the consumer moves on to the partition's next record without
 * waiting for its answer: requests have no order to keep, and a partition held by one
 * project's slow requests (frames waiting their turn in media-service's fair share) would
 * keep every request behind it in Kafka, where no fair share reaches. At most
 * `maxRequestsInFlight` run at once; at the bound the consumer pauses the topic, so the
 * rest wait in Kafka, and resumes when one ends.
 */
export class TopicCreatingServerKafka extends ServerKafka {
  private readonly replyLogger = new Logger('ServerKafka');
  private readonly inFlight: RequestsInFlight;
  /** Replies being sent: a stopping server waits for them before it closes its producer. */
  private readonly replies = new Set<Promise<unknown>>();

  constructor(
    options: KafkaOptions['options'],
    private readonly service: string,
    private readonly connection: KafkaConnection,
  ) {
    super(options ?? {});
    this.inFlight = new RequestsInFlight(
      connection.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT,
      () => this.fetching(false),
      () => this.fetching(true),
    );
  }

  /** Pauses or resumes the request topic (every partition this process holds, now or after a rebalance). */
  private fetching(on: boolean): void {
    const topics = [{ topic: this.requestTopic }];
    try {
      if (on) this.consumer?.resume(topics);
      else this.consumer?.pause(topics);
    } catch (err) {
      // A consumer stopping or not yet running: it fetches nothing either way.
      this.replyLogger.warn(`Could not ${on ? 'resume' : 'pause'} ${this.requestTopic} (${(err as Error)?.message ?? err})`);
    }
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
   * kafkajs' eachMessage: starts the record's request and returns without waiting for its
   * answer. A request that may write (not in READ_ONLY_PATTERNS) is committed before the
   * partition's next record is taken; reads ride on the periodic commit of what kafkajs
   * resolved. So an offset is committed once its request is taken, not once it is answered:
   * a request runs at most once, and a restarted service does not run again what it had
   * taken (one it was running when it died is lost; its caller has had its 503).
   */
  override getMessageHandler(): (payload: EachMessagePayload) => Promise<void> {
    return async (payload) => {
      const { topic, partition, message } = payload;
      this.inFlight.add(
        this.handleMessage(payload).then(
          // Nest sends the reply on the next tick: past setImmediate it is in `replies`.
          () => new Promise<void>((resolve) => setImmediate(resolve)),
          (err: unknown) =>
            this.replyLogger.warn(`A request at ${topic}[${partition}] offset ${message.offset} failed unanswered (${(err as Error)?.message ?? err}); its caller times out`),
        ),
      );
      if (!READ_ONLY_PATTERNS.has(patternOf(payload) as Pattern)) await this.commitThrough(payload);
    };
  }

  /** Handles a record; a record without a pattern is handled as one on the request topic itself: no handler, so its caller hears so. */
  override async handleMessage(payload: EachMessagePayload): Promise<unknown> {
    const pattern = patternOf(payload);
    return super.handleMessage({ ...payload, topic: pattern ?? payload.topic });
  }

  /** Requests started and not yet answered. */
  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * Stops taking requests, lets those in hand finish and send their replies (as kafkajs let
   * the one it was handling finish when each held its partition), then closes the producer.
   * The process's shutdown deadline bounds the wait, as it did.
   */
  override async close(): Promise<void> {
    await this.consumer?.disconnect();
    await this.inFlight.settled();
    while (this.replies.size > 0) await Promise.allSettled([...this.replies]);
    await this.producer?.disconnect();
    this.consumer = null;
    this.producer = null;
    this.client = null;
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
    const sent = super.sendMessage(message, replyTopic, replyPartition, correlationId, context).catch((err: unknown) => {
      this.replyLogger.warn(`A reply to '${replyTopic}' could not be sent (${(err as Error)?.message ?? err}); its caller times out`);
      return [];
    });
    this.replies.add(sent);
    void sent.finally(() => this.replies.delete(sent));
    return sent;
  }
}

/** The pattern a record's header names, if any. */
function patternOf(payload: EachMessagePayload): string | undefined {
  const header = payload.message.headers?.[PATTERN_HEADER];
  return Buffer.isBuffer(header) ? header.toString() : typeof header === 'string' ? header : undefined;
}
