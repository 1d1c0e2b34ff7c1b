import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { checkedHandler } from '../bus-request-check';
import { InProcessBroker } from './in-process.broker';

/** Nest server strategy that answers bus requests from the in-process broker. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  private readonly registered: string[] = [];

  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  /** Every request handler behind busRequestRefusal, as the Kafka transport's. */
  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    super.addHandler(pattern, isEventHandler ? callback : checkedHandler(this.normalizePattern(pattern as string), callback), isEventHandler, extras);
  }

  listen(callback: () => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      // `data` made its JSON round-trip in InProcessClient, the only sender: once is what Kafka does.
      this.broker.register(pattern, async (data) => {
        const result: unknown = await handler(data, new BaseRpcContext([pattern]));
        return this.transformToObservable(result);
      });
      this.registered.push(pattern);
    }
    callback();
  }

  close(): void {
    for (const pattern of this.registered.splice(0)) this.broker.unregister(pattern);
  }

  on(): void {
    // The in-process broker has no connection events.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}
