/** One record of a stream (a Kafka topic in the distributed mode): its key orders it within a partition. */
export interface StreamRecord<T = unknown> {
  key: string;
  value: T;
  /**
   * Bytes that travel beside the value as they are, never serialized into it (on Kafka: the
   * message's value, with the JSON value in a header), for a payload that already is bytes.
   */
  bytes?: Uint8Array;
}

/**
 * Writes records to a stream. `publish` resolves only once the records are durable: on
 * Kafka, acknowledged by all in-sync replicas; in-process, committed by the consumer.
 * Any failure rejects with a DomainError (`unavailable` when the stream is down).
 */
export abstract class StreamPublisher {
  /**
   * Whether a record's value is serialized on its way (Kafka), or handed to the consumer as
   * the same object (in-process): only then is it worth making a record smaller to send.
   */
  readonly serializesRecords: boolean = true;
  abstract publish<T>(topic: string, records: StreamRecord<T>[]): Promise<void>;
  abstract isReachable(): Promise<boolean>;
}

/**
 * Handles a batch of records and resolves once their effects are committed. Throwing
 * fails the whole batch; the consumer retries it and, after that, isolates the record
 * at fault (see StreamConsumerOptions.deadLetterTopic).
 */
export type BatchHandler<T = unknown> = (records: StreamRecord<T>[]) => Promise<void>;
