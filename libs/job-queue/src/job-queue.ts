/** A job to enqueue: its id (a job whose id is waiting or running already is not added again) and its data. */
export interface JobToQueue<T> {
  id: string;
  data: T;
}

/** A job as its handler receives it: which attempt this is, and a signal aborted when the job is cancelled or the queue closes. */
export interface JobRun<T> {
  id: string;
  data: T;
  /** 1 for the first attempt. */
  attempt: number;
  /** No further attempt follows a failure of this one: the handler records the failure itself. */
  lastAttempt: boolean;
  signal: AbortSignal;
}

/** Does one attempt of a job; a throw is a failed attempt, retried after the backoff unless it was the last. */
export type JobHandler<T> = (job: JobRun<T>) => Promise<void>;

/** How a queue runs its jobs, whichever implementation holds them. */
export interface JobQueueSettings<T> {
  /** The queue's name: BullMQ's key in Redis, on the wire (a queue already in use keeps its name). */
  name: string;
  /** What a job does, for the log ("Probe"). */
  label: string;
  /** Jobs running at once in this process. */
  concurrency: number;
  /** Attempts of a job before it fails for good: a number, or the job's own. */
  attempts: number | ((data: T) => number);
  /** The first retry's delay; doubled for each further one. */
  backoffMs: number;
  /**
   * The group (project) a job serves, for fairness: at most `perGroup` of one group's jobs
   * run at once, and the groups take turns (FairLimit). Without it every job is of one group.
   */
  groupOf?: (data: T) => string | undefined;
  /** One group's jobs running at once; default all the slots (no cap). */
  perGroup?: number;
  /** How long close() waits for running jobs after aborting their signal; default until they end. */
  closeGraceMs?: number;
}

/** Counts of jobs by state, in BullMQ's terms (for the metrics). */
export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
}

/**
 * Where background jobs wait until a handler runs them: BullMQ in Redis (distributed mode,
 * BullJobQueue) or this process (all-in-one, InProcessJobQueue). Either way a job has an id
 * (enqueueing it again while it waits or runs adds nothing), is retried with exponential
 * backoff, runs `concurrency` at a time shared fairly between groups, and close() drains.
 * An in-process queue forgets its jobs with the process: whoever enqueues keeps what is
 * owed in its store and hands it over again at boot (SweptJobs).
 */
export abstract class JobQueue<T> {
  /** Adds the jobs whose ids are not waiting or running already. */
  abstract enqueue(jobs: JobToQueue<T>[]): Promise<void>;
  /** Starts running the queue's jobs through `handler` (once per queue). */
  abstract process(handler: JobHandler<T>): void;
  /** Drops the named jobs that wait; those running in this process get their signal aborted. */
  abstract cancel(ids: string[]): Promise<void>;
  abstract counts(): Promise<JobCounts>;
  abstract isReachable(): Promise<boolean>;
  /** Stops taking jobs and retrying, aborts the running jobs' signal and waits for them (up to closeGraceMs). */
  abstract close(): Promise<void>;
}

export const attemptsOf = <T>(settings: Pick<JobQueueSettings<T>, 'attempts'>, data: T): number =>
  Math.max(1, typeof settings.attempts === 'number' ? settings.attempts : settings.attempts(data));

/** Waits for `work` at most `ms` (Infinity: until it settles). */
export async function settledWithin(work: Promise<unknown>, ms = Infinity): Promise<void> {
  if (ms === Infinity) {
    await work.catch(() => undefined);
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
