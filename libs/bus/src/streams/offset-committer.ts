/** Where a consumer group resumes a partition: past its last stored record. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Commits a consumer's offsets at most once every `everyMs`: the offsets of what was stored
 * meanwhile gather, each partition's latest kept, and go in one commit. Each commit is a
 * request to the group coordinator and a write to the broker's offsets log, too dear to pay
 * for every small batch stored. Delaying a commit loses nothing: after a crash or a rebalance,
 * the records stored since the last commit are read again, as they always could be (handlers
 * are idempotent).
 */
export class OffsetCommitter {
  private readonly pending = new Map<string, PartitionOffset>();
  private timer?: NodeJS.Timeout;
  /** Commits run one after another, so an earlier offset never lands after a later one. */
  private inFlight: Promise<void> = Promise.resolve();

  /** @param commit commits the offsets; it must handle its own failures (the records are then read again). */
  constructor(
    private readonly commit: (offsets: PartitionOffset[]) => Promise<void>,
    private readonly everyMs: number,
  ) {}

  /** Offsets past records now stored; committed within `everyMs`. */
  add(offsets: Iterable<PartitionOffset>): void {
    for (const offset of offsets) this.pending.set(`${offset.topic}/${offset.partition}`, offset);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.commitPending();
    }, this.everyMs);
  }

  /** Commits what waits at once (a consumer stopping); resolves when every commit asked for so far is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.commitPending();
  }

  private commitPending(): Promise<void> {
    this.inFlight = this.inFlight
      .then(async () => {
        if (this.pending.size === 0) return;
        const offsets = [...this.pending.values()];
        this.pending.clear();
        await this.commit(offsets);
      })
      .catch(() => undefined);
    return this.inFlight;
  }
}
