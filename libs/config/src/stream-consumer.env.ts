import { IsInt, Max, Min } from 'class-validator';
import { ToInt } from './env-types';
import { StoreAndBusEnv } from './store-and-bus.env';

/** What an app that consumes a stream (trace.ingest, benchmark.task.events) reads besides its store and the bus. */
export class StreamConsumerEnv extends StoreAndBusEnv {
  /**
   * Longest a stream consumer's fetch waits for records. Kafka answers as soon as records
   * arrive, so the bus's 500 ms suits it.
   */
  @ToInt() @IsInt() @Min(1) @Max(5000) KAFKA_STREAM_MAX_WAIT_MS = 500;
}
