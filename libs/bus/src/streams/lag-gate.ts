import type { GroupLag } from '../kafka/consumer-group-lag';

/** A stream whose publishers wait while its consumer group is more than `maxLag` records behind. */
export interface LagBound {
  topic: string;
  groupId: string;
  maxLag: number;
}

/** A reading older than this is not trusted either way: publishing goes on (and fails by itself if the broker is down). */
const STALE_AFTER_MS = 5000;
/** The store rate is measured over the readings of this long: one slow write batch is not a stall. */
const RATE_WINDOW_MS = 5000;
/** Retry-After while the group stored nothing over the whole window (stopped, or restarting). */
const STALLED_RETRY_AFTER_S = 5;
const MAX_RETRY_AFTER_S = 30;

/**
 * Backpressure from a consumer group to the publishers of its topic. A broker keeps a
 * topic for a bounded time or size; a consumer that falls far enough behind would find
 * acknowledged records gone. So the gate reads the group's lag every `pollMs` and, while
 * it exceeds the bound, tells publishers how long to wait (Retry-After), estimated from
 * how fast the group has been committing. Between readings it counts what this process
 * published, so a burst cannot overshoot the bound by a whole polling interval.
 */
export class LagGate {
  private reading?: { behind: number; committed: number; at: number };
  /** Recent readings' committed offsets, oldest first, spanning at most RATE_WINDOW_MS. */
  private history: Array<{ committed: number; at: number }> = [];
  private publishedSinceReading = 0;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly readLag: () => Promise<GroupLag>,
    private readonly maxLag: number,
    private readonly pollMs = 500,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    const loop = async () => {
      await this.poll();
      if (!this.stopped) this.timer = setTimeout(loop, this.pollMs).unref();
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Takes one reading; a failed one leaves the last, which goes stale in time. */
  async poll(): Promise<void> {
    const publishedBefore = this.publishedSinceReading;
    let lag: GroupLag;
    try {
      lag = await this.readLag();
    } catch {
      return;
    }
    const at = this.now();
    this.reading = { behind: lag.behind, committed: lag.committed, at };
    this.history.push({ committed: lag.committed, at });
    while (this.history.length > 2 && at - this.history[1].at >= RATE_WINDOW_MS) this.history.shift();
    // What was published while the reading was taken may be missing from it: keep counting it.
    this.publishedSinceReading -= publishedBefore;
  }

  notePublished(records: number): void {
    this.publishedSinceReading += records;
  }

  /** Records the group is behind, as far as this process knows; undefined when it cannot tell. */
  behind(): number | undefined {
    if (!this.reading || this.now() - this.reading.at > STALE_AFTER_MS) return undefined;
    return this.reading.behind + this.publishedSinceReading;
  }

  /** Seconds a publisher should wait before trying again; undefined when it may publish now. */
  waitSeconds(): number | undefined {
    const behind = this.behind();
    if (behind === undefined || behind <= this.maxLag) return undefined;
    const rate = this.storeRate();
    if (rate === undefined) return 1;
    if (rate === 0) return STALLED_RETRY_AFTER_S;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil((behind - this.maxLag) / rate)));
  }

  /** Records per second the group committed over the recent readings; undefined before two. */
  private storeRate(): number | undefined {
    const first = this.history[0];
    const last = this.history[this.history.length - 1];
    if (!first || last.at <= first.at) return undefined;
    return (Math.max(0, last.committed - first.committed) * 1000) / (last.at - first.at);
  }
}
