/** Probes one media by id; `lastAttempt` says a failure will not be retried (the prober then records it). */
export type ProbeJob = (mediaId: string, lastAttempt: boolean) => Promise<void>;

/**
 * Where probe jobs wait: BullMQ in the distributed mode (a probe survives a restart), the
 * process itself in all-in-one. Both are drained by media-service with bounded concurrency;
 * a media whose job was lost anyway is still `pending` and the sweep hands it over again.
 */
export abstract class ProbeQueue {
  /** Adds a job per id; an id whose job is waiting or running already is left as it is. */
  abstract enqueue(mediaIds: string[]): Promise<void>;
  /** Starts draining the queue into `job`. */
  abstract consume(job: ProbeJob): void;
  abstract isReachable(): Promise<boolean>;
  /** Stops taking jobs and waits for those running. */
  abstract close(): Promise<void>;
}

/** Attempts per probe before the media is `failed` (a dependency blip, not bad input: bad input fails at once). */
export const PROBE_ATTEMPTS = 3;
