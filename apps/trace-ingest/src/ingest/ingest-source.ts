import { StreamSource, StreamSubscription } from '@cinetrace/bus';
import { isTransientStoreError } from '@cinetrace/persistence';
import { Topics, TraceIngestMessage } from '@cinetrace/contracts';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { TraceIngestHandler } from './trace-ingest.handler';

/** Where trace-ingest reads the trace stream from: the Kafka topic, or the all-in-one process's streams. */
export type IngestSource = StreamSource;
export const INGEST_SOURCE = Symbol('INGEST_SOURCE');

/** Consumes the trace stream from application start to shutdown. */
@Injectable()
export class IngestSubscription implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscription: StreamSubscription<TraceIngestMessage>;

  constructor(@Inject(INGEST_SOURCE) source: IngestSource, handler: TraceIngestHandler) {
    this.subscription = new StreamSubscription(source, {
      groupId: 'trace-ingest',
      topic: Topics.TraceIngest,
      deadLetterTopic: Topics.TraceIngestDeadLetter,
      isTransient: isTransientStoreError,
      handle: handler.handle,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.subscription.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.subscription.stop();
  }
}
