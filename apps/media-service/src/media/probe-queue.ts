/** A job: the id it is for (a media's, a copy's) and the project it serves, whose fair share of the queue it takes. */
export interface QueuedJob {
  id: string;
  projectId: string;
}

/** Probes one media by id; `lastAttempt` says a failure will not be retried (the prober then records it). */
export type ProbeJob = (mediaId: string, lastAttempt: boolean) => Promise<void>;

/**
 * Where probe jobs wait: BullMQ in the distributed mode (a probe survives a restart), the
 * process itself in all-in-one. Both are drained by media-service with bounded concurrency;
 * a media whose job was lost anyway is still `pending` and the sweep hands it over again.
 * Both share their slots fairly between projects, each project's jobs in flight capped
 * (`perProject`): one project's flood never holds another's job behind all of it (issue 59).
 */
export abstract class ProbeQueue {
  /** Adds a job per id; an id whose job is waiting or running already is left as it is. */
  abstract enqueue(jobs: QueuedJob[]): Promise<void>;
  /** Starts draining the queue into `job`. */
  abstract consume(job: ProbeJob): void;
  abstract isReachable(): Promise<boolean>;
  /** Stops taking jobs and waits for those running. */
  abstract close(): Promise<void>;
}

/** Attempts per probe before the media is `failed` (a dependency blip, not bad input: bad input fails at once). */
export const PROBE_ATTEMPTS = 3;
