import { ErrorCode } from '@cinetrace/contracts';
import { ClientProxy, MsPattern, ReadPacket, WritePacket } from '@nestjs/microservices';
import type { Subscription } from 'rxjs';
import { BUS_RETRY_AFTER_SECONDS } from '../to-domain-error';
import { InProcessBroker, jsonRoundTrip } from './in-process.broker';

/**
 * Nest client that sends bus requests to handlers registered in the same process. A request
 * is copied through JSON, as Kafka would carry it; a reply is handed over as built (a view
 * made for this request, which the gateway only serializes), so a large one is not copied twice.
 */
export class InProcessClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async connect(): Promise<void> {
    // Nothing to connect: the broker is an object in this process.
  }

  close(): void {}

  unwrap<T>(): T {
    return this.broker as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = this.normalizePattern(packet.pattern as MsPattern);
    const handler = this.broker.handlerFor(pattern);
    if (!handler) {
      const err = { code: ErrorCode.Unavailable, detail: `No service answers '${pattern}'`, retryAfter: BUS_RETRY_AFTER_SECONDS };
      callback({ err, isDisposed: true });
      return () => undefined;
    }
    let subscription: Subscription | undefined;
    let cancelled = false;
    handler(jsonRoundTrip(packet.data)).then(
      (response$) => {
        if (cancelled) return;
        subscription = response$.subscribe({
          next: (response) => callback({ response }),
          error: (err: unknown) => callback({ err: jsonRoundTrip(err), isDisposed: true }),
          complete: () => callback({ isDisposed: true }),
        });
      },
      (err: unknown) => callback({ err: jsonRoundTrip(err), isDisposed: true }),
    );
    return () => {
      cancelled = true;
      subscription?.unsubscribe();
    };
  }

  protected async dispatchEvent(): Promise<never> {
    throw new Error('The in-process bus carries request-reply messages only');
  }
}
