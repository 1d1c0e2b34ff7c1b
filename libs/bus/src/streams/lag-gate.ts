import { Logger } from '@nestjs/common';
import type { GroupLag } from '../kafka/consumer-group-lag';

/** A stream whose publishers wait while its consumer group is more than `maxLagBytes` behind. */
export interface LagBound {
  topic: string;
  groupId: string;
  maxLagBytes: number;
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
 *
 * Kafka tells the lag in records; retention is in bytes, and a record may be 300 bytes or
 * 3 MB. The bound is in bytes: records behind times the average size of the records this
 * process published (none published yet: it cannot tell, and holds nothing back).
 */
export interface LagGateOptions {
  pollMs?: number;
  now?: () => number;
  /** Names the stream in the log lines that say when publishers are held back and let go. */
  logger?: { stream: string; log: Pick<Logger, 'warn' | 'log'> };
}

export class LagGate {
  private reading?: { behind: number; at: number };
  /** Recent readings' committed offsets, oldest first, spanning at most RATE_WINDOW_MS. */
  private history: Array<{ committed: number; at: number }> = [];
  private publishedSinceReading = 0;
  /** Average size of the records published, weighted to the recent ones. */
  private recordBytes?: number;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private holding = false;
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly logger?: LagGateOptions['logger'];

  constructor(
    private readonly readLag: () => Promise<GroupLag>,
    private readonly maxLagBytes: number,
    options: LagGateOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.now = options.now ?? Date.now;
    this.logger = options.logger;
  }

  start(): void {
    const loop = async () => {
      await this.poll();
      // poll() swallows a failed reading, so loop() never rejects: nothing to await here.
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.pollMs).unref();
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
    this.reading = { behind: lag.behind, at };
    this.history.push({ committed: lag.committed, at });
    while (this.history.length > 2 && at - this.history[1].at >= RATE_WINDOW_MS) this.history.shift();
    // What was published while the reading was taken may be missing from it: keep counting it.
    this.publishedSinceReading -= publishedBefore;
    this.logTransition();
  }

  /** One line when publishers start being held back, one when they are let go: not one per refusal. */
  private logTransition(): void {
    const holding = this.waitSeconds() !== undefined;
    if (holding === this.holding || !this.logger) return;
    this.holding = holding;
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const behind = `${mib(this.behindBytes() ?? 0)} MiB behind (bound ${mib(this.maxLagBytes)} MiB)`;
    if (holding) this.logger.log.warn(`Holding publishes to '${this.logger.stream}' back: its consumers are ${behind}`);
    else this.logger.log.log(`Publishes to '${this.logger.stream}' go through again: its consumers are ${behind}`);
  }

  notePublished(records: number, bytes: number): void {
    if (records <= 0) return;
    this.publishedSinceReading += records;
    const size = bytes / records;
    this.recordBytes = this.recordBytes === undefined ? size : this.recordBytes + (size - this.recordBytes) * Math.min(1, records / 1000);
  }

  /** Records the group is behind, as far as this process knows; undefined when it cannot tell. */
  behind(): number | undefined {
    if (!this.reading || this.now() - this.reading.at > STALE_AFTER_MS) return undefined;
    return this.reading.behind + this.publishedSinceReading;
  }

  /** Bytes the group is behind, estimated; undefined when it cannot tell. */
  behindBytes(): number | undefined {
    const behind = this.behind();
    return behind === undefined || this.recordBytes === undefined ? undefined : behind * this.recordBytes;
  }

  /** Seconds a publisher should wait before trying again; undefined when it may publish now. */
  waitSeconds(): number | undefined {
    const behindBytes = this.behindBytes();
    if (behindBytes === undefined || behindBytes <= this.maxLagBytes) return undefined;
    const rate = this.storeRate();
    if (rate === undefined) return 1;
    if (rate === 0) return STALLED_RETRY_AFTER_S;
    const excessRecords = (behindBytes - this.maxLagBytes) / this.recordBytes!;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(excessRecords / rate)));
  }

  /** Records per second the group committed over the recent readings; undefined before two. */
  private storeRate(): number | undefined {
    const first = this.history[0];
    const last = this.history[this.history.length - 1];
    if (!first || last.at <= first.at) return undefined;
    return (Math.max(0, last.committed - first.committed) * 1000) / (last.at - first.at);
  }
}
