import { Logger } from '@nestjs/common';
import { FairLimit } from '../fair/fair-limit';
import { PROBE_ATTEMPTS, ProbeJob, ProbeQueue, QueuedJob } from './probe-queue';

/**
 * All-in-one's probe queue (and storyboard and copy queues): the process's own, `concurrency`
 * at a time, shared fairly between projects with at most `perProject` of one project's jobs in
 * flight (FairLimit); a restart's sweep finds what it held.
 */
export class InProcessProbeQueue extends ProbeQueue {
  private readonly logger = new Logger('ProbeQueue');
  private readonly known = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly slots: FairLimit;
  private job?: ProbeJob;
  /** Jobs enqueued before consume() wait for it here. */
  private readonly held: QueuedJob[] = [];
  private closed = false;

  constructor(
    concurrency: number,
    /** The first retry's delay; doubled for each further one. */
    private readonly retryDelayMs = 1000,
    /** What a job does, for the log (`Probe`; the storyboard and copy jobs use the same kind of queue). */
    private readonly jobName = 'Probe',
    /** One project's jobs in flight at most; default all the slots (no cap). */
    perProject = concurrency,
  ) {
    super();
    this.slots = new FairLimit(concurrency, perProject);
  }

  async enqueue(jobs: QueuedJob[]): Promise<void> {
    for (const queued of jobs) {
      if (this.known.has(queued.id)) continue;
      this.known.add(queued.id);
      if (this.job) this.start(this.job, queued);
      else this.held.push(queued);
    }
  }

  consume(job: ProbeJob): void {
    this.job = job;
    for (const queued of this.held.splice(0)) this.start(job, queued);
  }

  async isReachable(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }

  private start(job: ProbeJob, { id, projectId }: QueuedJob): void {
    const run = this.slots
      .run(projectId, () => this.attempt(job, id))
      .finally(() => {
        this.running.delete(run);
        this.known.delete(id);
      });
    this.running.add(run);
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
