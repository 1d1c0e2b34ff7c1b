import { StreamSource, StreamSubscription } from '@cinetrace/bus';
import { isTransientStoreError } from '@cinetrace/persistence';
import { ConsumerGroups, Topics, TraceIngestMessage } from '@cinetrace/contracts';
import { Provider } from '@nestjs/common';
import { TraceIngestHandler } from './trace-ingest.handler';

/** Where trace-ingest reads the trace stream from: the Kafka topic, or the all-in-one process's streams. */
export type IngestSource = StreamSource;

/**
 * Two transactions store at once: while one waits on PostgreSQL the other merges and
 * builds its statements (one alone leaves the database idle while it merges). A trace's
 * records share a partition (the topic is keyed by trace), so one lane stores them in order.
 */
const WRITE_LANES = 2;

/** Consumes the trace stream from application start to shutdown. */
export function ingestSubscription(source: IngestSource): Provider {
  return {
    provide: StreamSubscription,
    inject: [TraceIngestHandler],
    useFactory: (handler: TraceIngestHandler) =>
      new StreamSubscription<TraceIngestMessage>(source, {
        groupId: ConsumerGroups.TraceIngest,
        topic: Topics.TraceIngest,
        deadLetterTopic: Topics.TraceIngestDeadLetter,
        isTransient: isTransientStoreError,
        handle: handler.handle,
        writeLanes: WRITE_LANES,
      }),
  };
}
