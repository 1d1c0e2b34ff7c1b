import type { GroupLag } from '../kafka/consumer-group-lag';

/** A stream whose publishers wait while its consumer group is more than `maxLag` records behind. */
export interface LagBound {
  topic: string;
  groupId: string;
  maxLag: number;
}

/** A reading older than this is not trusted either way: publishing goes on (and fails by itself if the broker is down). */
const STALE_AFTER_MS = 5000;
/** Retry-After while the group stores nothing at all (stopped, or restarting). */
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
  /** Records per second the group committed between the last two readings. */
  private storeRate?: number;
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
    if (this.reading && at > this.reading.at) {
      this.storeRate = (Math.max(0, lag.committed - this.reading.committed) * 1000) / (at - this.reading.at);
    }
    this.reading = { behind: lag.behind, committed: lag.committed, at };
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
    if (!this.storeRate) return STALLED_RETRY_AFTER_S;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil((behind - this.maxLag) / this.storeRate)));
  }
}
