import { serviceAnswering } from '@cinetrace/contracts';
import { ClientKafka, KafkaHeaders, KafkaOptions, MsPattern, ReadPacket, WritePacket } from '@nestjs/microservices';
import { KafkaParser } from '@nestjs/microservices/helpers/kafka-parser';
import type { EachMessagePayload } from '@nestjs/microservices/external/kafka.interface';
import { JsonText } from '../json-text';
import type { KafkaConnection } from './kafka.options';
import { ensureTopics, PATTERN_HEADER, replyTopic, requestTopic, serviceRequestTopic } from './kafka-topics';
import { JsonValueSerializer } from './json-value.serializer';

/**
 * Nest's Kafka client, with two changes to where records go:
 * - a request goes to its service's one request topic (`<service>.requests`), its pattern in
 *   the PATTERN_HEADER, instead of to a topic named after the pattern (see serviceRequestTopic);
 * - every reply comes back on one topic of the client's (`<client>.reply`) instead of a
 *   `<pattern>.reply` topic per pattern, so its reply consumer fetches one topic's partitions
 *   rather than those of every pattern (the gateway sends 40).
 * - a reply's value is handed over as JSON text (JsonText), not parsed: BusClient parses it
 *   for callers that need the value, and the gateway sends a large one on as it came.
 * Before it subscribes it creates its reply topic and the request topics it sends to (with
 * the settings the services create them with), so neither is left to auto-creation.
 */
export class OneReplyTopicClientKafka extends ClientKafka {
  private readonly sentPatterns: string[] = [];
  /** Its own, not the options' serializer: Nest's default would take a payload with a `key` for a raw Kafka message. */
  private readonly valueSerializer = new JsonValueSerializer();

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
      const requestTopics = [...new Set(this.sentPatterns.map(requestTopicOf))];
      await ensureTopics(clientId, connection, [replyTopic(this.replyTopic), ...requestTopics.map(requestTopic)], {
        groupId: this.groupId,
      });
    }
    await super.bindTopics();
  }

  /** As Nest's, but the reply's value stays JSON text; an error (in a header) is parsed as Nest parses it. */
  override createResponseCallback(): (payload: EachMessagePayload) => Promise<void> {
    const errorParser = new KafkaParser();
    return async ({ message }) => {
      const headers = message.headers ?? {};
      const id = headers[KafkaHeaders.CORRELATION_ID]?.toString();
      // Nest's routingMap holds Functions: each is the publish() callback it was given.
      const callback = id === undefined ? undefined : (this.routingMap.get(id) as ((packet: WritePacket) => void) | undefined);
      if (!callback) return;
      const err = headers[KafkaHeaders.NEST_ERR];
      if (err !== undefined) return callback({ err: errorParser.decode(Buffer.from(String(err))), isDisposed: true });
      const response = message.value === null ? null : new JsonText(message.value);
      if (headers[KafkaHeaders.NEST_IS_DISPOSED] !== undefined) return callback({ response, isDisposed: true });
      callback({ response });
    };
  }

  protected override getResponsePatternName(): string {
    return this.replyTopic;
  }

  /** As Nest's, but to the service's request topic with the pattern in a header. */
  protected override publish(partial: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const packet = this.assignPacketId(partial);
    this.routingMap.set(packet.id, callback);
    const cleanup = () => this.routingMap.delete(packet.id);
    try {
      const pattern = this.normalizePattern(partial.pattern as MsPattern);
      const message = this.valueSerializer.serialize(packet.data);
      message.headers[PATTERN_HEADER] = pattern;
      message.headers[KafkaHeaders.CORRELATION_ID] = packet.id;
      message.headers[KafkaHeaders.REPLY_TOPIC] = this.replyTopic;
      message.headers[KafkaHeaders.REPLY_PARTITION] = this.getReplyTopicPartition(this.replyTopic);
      this.producer.send({ ...this.options.send, topic: requestTopicOf(pattern), messages: [message] }).catch((err: unknown) => {
        cleanup();
        callback({ err });
      });
    } catch (err) {
      cleanup();
      callback({ err });
    }
    return cleanup;
  }
}

/** The request topic of the service answering `pattern`; a pattern no service answers is a programming error. */
export function requestTopicOf(pattern: string): string {
  const service = serviceAnswering(pattern);
  if (!service) throw new Error(`no service answers the pattern '${pattern}' (see ServicePatterns)`);
  return serviceRequestTopic(service);
}
