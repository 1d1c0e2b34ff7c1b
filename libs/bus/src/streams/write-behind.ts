import { takeWithin } from '../take-within';

/**
 * What a consumer fetched and has not stored yet, stored in order by one writer loop
 * that takes everything waiting at once: while one write runs, the batches fetched in
 * the meantime gather into the next (group commit). Fetching then never waits for the
 * store, and the store is paid once per write rather than once per fetched batch. An idle
 * writer starts at the end of the turn, not at the first entry: kafkajs hands a fetch's
 * partitions over one after another, and the first alone made every other write small.
 */
export class WriteBehind<E extends { size: number }> {
  private readonly waiting: Array<{ entry: E; addedAt: number; stored: () => void; failed: (err: unknown) => void }> = [];
  private buffered = 0;
  private writing?: Promise<void>;
  private progressed = signal();
  /** Resolved once `linger.records` wait: a lingering writer starts its write then. */
  private filled = signal();
  private stopped = false;

  /**
   * @param write stores entries (in the order given) and resolves once they are durable;
   *   a rejection stops the writer: what it held and what waits are never written.
   * @param maxPerWrite most entry `size` (records) taken into one write, beyond the first entry.
   * @param linger a write waits until `records` wait or the oldest has waited `ms` (Kafka's
   *   `linger.ms`, on the store's side): fewer, larger statements for a little latency.
   */
  constructor(
    private readonly write: (entries: E[]) => Promise<void>,
    private readonly maxPerWrite: number,
    private readonly linger: WriteLinger = { ms: 0, records: 0 },
  ) {}

  /** Records added and not yet stored. */
  get backlog(): number {
    return this.buffered;
  }

  /** Queues an entry; resolves once it is stored, rejects if the writer stopped before that. */
  add(entry: E): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the writer has stopped'));
    const stored = new Promise<void>((resolve, reject) => this.waiting.push({ entry, addedAt: performance.now(), stored: resolve, failed: reject }));
    stored.catch(() => undefined);
    this.buffered += entry.size;
    if (this.buffered >= this.linger.records) this.filled.resolve();
    this.writing ??= this.drain();
    return stored;
  }

  /** Resolves when a write ends (or after `ms`), for callers waiting for the backlog to shrink. */
  progress(ms: number): Promise<void> {
    return settledOrAfter(this.progressed.promise, ms);
  }

  /** Resolves once everything added so far is stored (or the writer stopped). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      // The rest of the turn's entries (a fetch's other partitions) join this write.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length && !this.stopped) {
        await this.lingered();
        const taken = this.take();
        try {
          await this.write(taken.map((w) => w.entry));
        } catch (err) {
          this.stopped = true;
          for (const w of [...taken, ...this.waiting.splice(0)]) w.failed(err);
          this.buffered = 0;
          return;
        }
        this.buffered -= taken.reduce((sum, w) => sum + w.entry.size, 0);
        taken.forEach((w) => w.stored());
        this.progressed.resolve();
        this.progressed = signal();
      }
    } finally {
      this.writing = undefined;
      this.progressed.resolve();
    }
  }

  /** Waits, if lingering, until enough records wait or the oldest has waited long enough. */
  private async lingered(): Promise<void> {
    const { ms, records } = this.linger;
    const leftMs = ms - (performance.now() - this.waiting[0].addedAt);
    if (leftMs < 1 || this.buffered >= records) return;
    this.filled = signal();
    await settledOrAfter(this.filled.promise, leftMs);
  }

  private take() {
    return takeWithin(this.waiting, this.maxPerWrite, (w) => w.entry.size);
  }
}

/** How long a write may wait for more records to join it (none by default). */
export interface WriteLinger {
  /** Longest the oldest waiting entry is held back. */
  ms: number;
  /** Records waiting that start the write at once. */
  records: number;
}

/** Resolves when `promise` does or after `ms`, whichever comes first, leaving no timer behind. */
async function settledOrAfter(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
