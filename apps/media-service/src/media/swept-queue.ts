import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ProbeQueue } from './probe-queue';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * A job queue drained into its work, with a sweep at boot and once a minute that hands the
 * queue what the store still says waits (a job never queued while Redis was away, or gone
 * with an all-in-one process): nothing accepted stays waiting. A failed sweep is logged and
 * the next one retries.
 */
export abstract class SweptQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private sweeper?: NodeJS.Timeout;

  protected constructor(
    private readonly jobs: ProbeQueue,
    /** What is swept, for the log: "pending media". */
    private readonly swept: string,
  ) {}

  /** One job: its id, and whether this is its last attempt. */
  protected abstract run(id: string, lastAttempt: boolean): Promise<void>;

  /** Hands the queue (again) what the store says waits. */
  protected abstract requeue(): Promise<void>;

  onApplicationBootstrap(): void {
    this.jobs.consume((id, lastAttempt) => this.run(id, lastAttempt));
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    await this.jobs.close();
  }

  async sweep(): Promise<void> {
    try {
      await this.requeue();
    } catch (err) {
      this.logger.warn(`Sweep of ${this.swept} failed (the next one retries): ${(err as Error).message}`);
    }
  }
}
