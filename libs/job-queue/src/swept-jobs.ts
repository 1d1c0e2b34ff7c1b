import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { JobQueue, JobRun } from './job-queue';

/** Between two sweeps. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * A job queue drained into its handler, with a sweep at boot and once a minute that hands the
 * queue what its owner's store still says is owed (a job never queued while Redis was away,
 * or gone with an all-in-one process): nothing accepted stays waiting. A failed sweep is
 * logged and the next one retries. A Nest provider: the app's lifecycle starts and stops it.
 */
export abstract class SweptJobs<T> implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private sweeper?: NodeJS.Timeout;

  protected constructor(
    private readonly jobs: JobQueue<T>,
    /** What is swept, for the log: "pending media". */
    private readonly swept: string,
  ) {}

  /** One attempt of one job. */
  protected abstract handle(job: JobRun<T>): Promise<void>;

  /** Hands the queue (again) what the store says is owed. */
  protected abstract requeue(): Promise<void>;

  onApplicationBootstrap(): void {
    this.jobs.process((job) => this.handle(job));
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
