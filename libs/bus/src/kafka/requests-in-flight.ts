/**
 * The requests a service's Kafka server has taken and not yet answered. It says when their
 * number reaches `max` (`full`: the server stops fetching) and when it falls below again
 * (`room`), and lets a stopping server wait until every one of them has ended.
 */
export class RequestsInFlight {
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    readonly max: number,
    private readonly full: () => void,
    private readonly room: () => void,
  ) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`max must be a positive integer, not ${max}`);
  }

  get size(): number {
    return this.running.size;
  }

  /** Counts `work` until it settles (it is never rejected through here: `work` handles its own failure). */
  add(work: Promise<void>): void {
    const tracked: Promise<void> = work.finally(() => {
      this.running.delete(tracked);
      if (this.stopped && this.running.size < this.max) {
        this.stopped = false;
        this.room();
      }
    });
    this.running.add(tracked);
    if (!this.stopped && this.running.size >= this.max) {
      this.stopped = true;
      this.full();
    }
  }

  /** Resolves once every request taken so far (and any taken meanwhile) has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
