import type { Observable } from 'rxjs';

export type InProcessHandler = (data: unknown) => Promise<Observable<unknown>>;

/**
 * The all-in-one mode's bus: a registry of request handlers shared by the apps that
 * run in one process. Servers register their patterns; clients look them up.
 */
export class InProcessBroker {
  private readonly handlers = new Map<string, InProcessHandler>();

  register(pattern: string, handler: InProcessHandler): void {
    if (this.handlers.has(pattern)) throw new Error(`Two handlers for bus pattern '${pattern}'`);
    this.handlers.set(pattern, handler);
  }

  unregister(pattern: string): void {
    this.handlers.delete(pattern);
  }

  handlerFor(pattern: string): InProcessHandler | undefined {
    return this.handlers.get(pattern);
  }
}

/** The same JSON round-trip a message makes through Kafka: no shared references, Dates become strings. */
export function jsonRoundTrip<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
