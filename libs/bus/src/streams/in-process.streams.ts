import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { takeWithin } from '../take-within';
import { BatchHandler, StreamPublisher, StreamRecord } from './stream.types';

interface Pending {
  records: StreamRecord[];
  done: (err?: unknown) => void;
}

/**
 * The all-in-one mode's streams. Publishes that arrive while the consumer is busy are
 * queued and handed to it together as one batch (group commit: one transaction for
 * many requests), and each publisher is answered only after its batch committed.
 */
export class InProcessStreams extends StreamPublisher {
  override readonly serializesRecords = false;
  private readonly consumers = new Map<string, TopicConsumer>();

  subscribe<T>(topic: string, handler: BatchHandler<T>, maxBatchRecords = 2000): void {
    if (this.consumers.has(topic)) throw new Error(`Two consumers for stream '${topic}'`);
    this.consumers.set(topic, new TopicConsumer(handler as BatchHandler, maxBatchRecords));
  }

  unsubscribe(topic: string): void {
    this.consumers.delete(topic);
  }

  publish<T>(topic: string, records: StreamRecord<T>[]): Promise<void> {
    const consumer = this.consumers.get(topic);
    if (!consumer) {
      return Promise.reject(new DomainError(ErrorCode.Unavailable, 'The service for this stream is not running', undefined, 2));
    }
    // Handed over as published, not copied: a publisher builds its records for the stream
    // (JSON values: times as numbers or ISO strings) and consumers only read them.
    return consumer.enqueue(records);
  }

  async isReachable(): Promise<boolean> {
    return true;
  }

  /** Records published to `topic` and not yet stored by its consumer (queued, or in the batch being handled). */
  pendingRecords(topic: string): number {
    return this.consumers.get(topic)?.pendingRecords ?? 0;
  }
}

class TopicConsumer {
  private queue: Pending[] = [];
  private running = false;
  /** Queued plus being handled: what the consumer is behind by. */
  pendingRecords = 0;

  constructor(
    private readonly handler: BatchHandler,
    private readonly maxBatchRecords: number,
  ) {}

  enqueue(records: StreamRecord[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pendingRecords += records.length;
      const done = (err?: unknown) => {
        this.pendingRecords -= records.length;
        if (err === undefined) resolve();
        else reject(err);
      };
      this.queue.push({ records, done });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    // Let the publishes of this tick join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length) {
      const batch = this.takeBatch();
      try {
        await this.handler(batch.flatMap((p) => p.records));
        batch.forEach((p) => p.done());
      } catch {
        // One bad publish must not fail the others that shared its batch: retry each alone.
        for (const p of batch) {
          try {
            await this.handler(p.records);
            p.done();
          } catch (err) {
            p.done(asUnavailable(err));
          }
        }
      }
    }
    this.running = false;
  }

  private takeBatch(): Pending[] {
    return takeWithin(this.queue, this.maxBatchRecords, (p) => p.records.length);
  }
}

/** A store that fails to take records is a passing outage to the client: 503, retry. */
function asUnavailable(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  return new DomainError(ErrorCode.Unavailable, 'The store could not take the records; retry shortly', undefined, 1);
}
