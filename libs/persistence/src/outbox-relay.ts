import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

/** Hands over one batch of what an outbox holds and removes it; answers whether more may wait. */
export type OutboxBatch = () => Promise<boolean>;

export interface OutboxRelayTiming {
  /** How often the outbox is looked at without being woken (what another replica queued, what a failure left). */
  sweepMs: number;
  /** The wait before the first retry after a failed hand-over; doubled after each further failure, up to `maxRetryMs`. */
  firstRetryMs: number;
  maxRetryMs: number;
}

export const OUTBOX_RELAY_TIMING: OutboxRelayTiming = { sweepMs: 15_000, firstRetryMs: 500, maxRetryMs: 30_000 };

/**
 * Empties an outbox (rows written in the transaction of the change they tell of) batch after
 * batch: when woken after such a transaction, on a sweep, and after a failure once a backoff
 * has passed. A wake while a hand-over runs makes one more run after it, so nothing queued
 * waits for the sweep. The receiver must take a batch twice without harm: a replica, or a
 * crash between the send and the removal, sends it again.
 */
export class OutboxRelay {
  private readonly logger: Logger;
  private sweeper?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private running?: Promise<void>;
  private wanted = false;
  private stopped = true;
  private failures = 0;

  constructor(
    private readonly name: string,
    private readonly batch: OutboxBatch,
    private readonly timing: OutboxRelayTiming = OUTBOX_RELAY_TIMING,
  ) {
    this.logger = new Logger(name);
  }

  start(): void {
    this.stopped = false;
    this.wake();
    this.sweeper = setInterval(() => this.wake(), this.timing.sweepMs);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    clearTimeout(this.retry);
    this.wanted = false;
    await this.running;
  }

  /** Hands over what waits now (a no-op once stopped, or before start). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wanted = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (!this.wanted) return;
      this.wanted = false;
      this.wake();
    });
  }

  /** Resolves once no hand-over runs. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Hands over what waits now and resolves once it is handed over, or failed (a retry follows),
   * or after `maxWaitMs`: for a caller that answers only once the receiver knows.
   */
  async flush(maxWaitMs: number): Promise<void> {
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)));
    await Promise.race([this.idle(), waited]);
    clearTimeout(timer);
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.batch()));
      this.failures = 0;
    } catch (err) {
      this.failures += 1;
      const delay = Math.min(this.timing.firstRetryMs * 2 ** (this.failures - 1), this.timing.maxRetryMs);
      this.logger.warn(`${this.name}: not handed over yet (retrying in ${delay} ms): ${(err as Error).message}`);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.wake(), delay);
      this.retry.unref();
    }
  }
}

/**
 * An outbox's relay as a Nest provider: started once the app is up, stopped (after the batch in
 * hand) when it closes. A subclass says how one batch is handed over (`handOverBatch`) and calls
 * `wake()` after a transaction that queued rows commits.
 */
export abstract class OutboxRelayProvider implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: OutboxRelay;

  protected constructor(name: string, timing: OutboxRelayTiming = OUTBOX_RELAY_TIMING) {
    this.relay = new OutboxRelay(name, () => this.handOverBatch(), timing);
  }

  /** Hands over one batch, oldest first, and removes it; answers whether more may wait. */
  protected abstract handOverBatch(): Promise<boolean>;

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  /** Hands over what waits now; a call while a hand-over runs makes one more run after it. */
  wake(): void {
    this.relay.wake();
  }

  /** Resolves once no batch is being handed over. */
  idle(): Promise<void> {
    return this.relay.idle();
  }

  /** Hands over what waits now and resolves once it is taken, or failed (a retry follows), or after `maxWaitMs`. */
  protected flushWithin(maxWaitMs: number): Promise<void> {
    return this.relay.flush(maxWaitMs);
  }
}
