import { InProcessStreams, KafkaConnection, KafkaStreamConsumer } from '@cinetrace/bus';
import { isTransientStoreError } from '@cinetrace/persistence';
import { Topics, TraceIngestMessage } from '@cinetrace/contracts';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { TraceIngestHandler } from './trace-ingest.handler';

/** Where trace-ingest reads the trace stream from: the Kafka topic, or the all-in-one process's streams. */
export type IngestSource =
  | { kind: 'kafka'; connection: KafkaConnection; clientId: string; partitions: number }
  | { kind: 'in-process'; streams: InProcessStreams };
export const INGEST_SOURCE = Symbol('INGEST_SOURCE');

/** Consumes the trace stream from application start to shutdown. */
@Injectable()
export class IngestSubscription implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer?: KafkaStreamConsumer<TraceIngestMessage>;

  constructor(
    @Inject(INGEST_SOURCE) private readonly source: IngestSource,
    private readonly handler: TraceIngestHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.source.kind === 'in-process') {
      this.source.streams.subscribe(Topics.TraceIngest, this.handler.handle);
      return;
    }
    this.consumer = new KafkaStreamConsumer(
      this.source.clientId,
      this.source.connection,
      {
        groupId: 'trace-ingest',
        topic: Topics.TraceIngest,
        deadLetterTopic: Topics.TraceIngestDeadLetter,
        partitions: this.source.partitions,
        // Every partition's batch in parallel: a fetch cycle then costs one transaction, not one per partition.
        partitionsConsumedConcurrently: this.source.partitions,
        isTransient: isTransientStoreError,
      },
      this.handler.handle,
    );
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.source.kind === 'in-process') this.source.streams.unsubscribe(Topics.TraceIngest);
    await this.consumer?.stop();
  }
}
