import { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InProcessStreams } from './in-process.streams';
import { KafkaStreamConsumer } from './kafka-stream.consumer';
import { KafkaConnection } from '../kafka/kafka.options';
import { BatchHandler } from './stream.types';

/** Where a service reads a stream from: a Kafka topic (distributed), or the all-in-one process's streams. */
export type StreamSource =
  { kind: 'kafka'; connection: KafkaConnection; clientId: string; partitions: number; writeLingerMs?: number } | { kind: 'in-process'; streams: InProcessStreams };

export interface StreamSubscriptionSpec<T> {
  groupId: string;
  topic: string;
  deadLetterTopic: string;
  /** Store failures: retried until they pass, never dead-lettered. */
  isTransient: (err: unknown) => boolean;
  handle: BatchHandler<T>;
  /** Kafka: transactions storing at once, each for its own share of the partitions (see KafkaStreamConsumer). */
  writeLanes?: number;
}

/**
 * One stream consumed the same way in either mode: on Kafka, what is fetched while the
 * handler works goes to it together next time (one transaction for many fetched batches),
 * with retries and dead letters; in-process, the handler takes the group commits. As a
 * Nest provider it consumes from application start to shutdown.
 */
export class StreamSubscription<T> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer?: KafkaStreamConsumer<T>;

  constructor(
    private readonly source: StreamSource,
    private readonly spec: StreamSubscriptionSpec<T>,
  ) {}

  async start(): Promise<void> {
    const { source, spec } = this;
    if (source.kind === 'in-process') {
      source.streams.subscribe(spec.topic, spec.handle);
      return;
    }
    this.consumer = new KafkaStreamConsumer(
      source.clientId,
      source.connection,
      {
        groupId: spec.groupId,
        topic: spec.topic,
        deadLetterTopic: spec.deadLetterTopic,
        partitions: source.partitions,
        partitionsConsumedConcurrently: source.partitions,
        isTransient: spec.isTransient,
        writeLanes: spec.writeLanes,
        writeLingerMs: source.writeLingerMs,
      },
      spec.handle,
    );
    await this.consumer.start();
  }

  async stop(): Promise<void> {
    if (this.source.kind === 'in-process') this.source.streams.unsubscribe(this.spec.topic);
    await this.consumer?.stop();
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
