import { IsInt, Max, Min } from 'class-validator';
import type { EnvClass } from './env-class';
import { ToInt } from './env-types';

/** The block of an app that consumes a stream (trace.ingest, benchmark.task.events). */
export function withStreamConsumer<B extends EnvClass>(Base: B) {
  class StreamConsumerEnv extends Base {
    /**
     * Longest a stream consumer's fetch waits for records. Kafka answers as soon as records
     * arrive, so the bus's 500 ms suits it.
     */
    @ToInt() @IsInt() @Min(1) @Max(5000) KAFKA_STREAM_MAX_WAIT_MS = 500;
    /**
     * How long a stream consumer's write waits for more fetched records to join it (up to 500
     * records): fewer, larger transactions, each record readable up to this much later.
     */
    @ToInt() @IsInt() @Min(0) @Max(1000) KAFKA_STREAM_WRITE_LINGER_MS = 30;
  }
  return StreamConsumerEnv;
}
