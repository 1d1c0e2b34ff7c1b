import { Logger } from '@nestjs/common';
import { PROBE_ATTEMPTS, ProbeJob, ProbeQueue } from './probe-queue';

/** All-in-one's probe queue (and storyboard queue): the process's own, `concurrency` at a time; a restart's sweep finds what it held. */
export class InProcessProbeQueue extends ProbeQueue {
  private readonly logger = new Logger('ProbeQueue');
  private readonly waiting: string[] = [];
  private readonly known = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private job?: ProbeJob;
  private closed = false;

  constructor(
    private readonly concurrency: number,
    /** The first retry's delay; doubled for each further one. */
    private readonly retryDelayMs = 1000,
    /** What a job does, for the log (`Probe`; the storyboard and copy jobs use the same kind of queue). */
    private readonly jobName = 'Probe',
  ) {
    super();
  }

  async enqueue(mediaIds: string[]): Promise<void> {
    for (const id of mediaIds) {
      if (this.known.has(id)) continue;
      this.known.add(id);
      this.waiting.push(id);
    }
    this.drain();
  }

  consume(job: ProbeJob): void {
    this.job = job;
    this.drain();
  }

  async isReachable(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }

  private drain(): void {
    while (this.job && !this.closed && this.running.size < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      const run = this.attempt(this.job, id).finally(() => {
        this.running.delete(run);
        this.known.delete(id);
        this.drain();
      });
      this.running.add(run);
    }
  }

  private async attempt(job: ProbeJob, id: string): Promise<void> {
    for (let attempt = 1; attempt <= PROBE_ATTEMPTS && !this.closed; attempt++) {
      try {
        return await job(id, attempt === PROBE_ATTEMPTS);
      } catch (err) {
        this.logger.warn(`${this.jobName} of ${id} failed (attempt ${attempt} of ${PROBE_ATTEMPTS}): ${(err as Error).message}`);
        if (attempt < PROBE_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * 2 ** (attempt - 1)));
      }
    }
  }
}
