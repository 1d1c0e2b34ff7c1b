import type { JobQueue, JobQueueSettings, JobToQueue } from '@cinetrace/job-queue';

/**
 * A probe, storyboard or copy job's data, as BullMQ holds it: the id it is for (a media's; a
 * copy's in the copy queue) and the project it serves, whose fair share of the queue it takes
 * (absent on jobs queued before fair sharing: they share one line). Never renamed: queued jobs carry it.
 */
export interface MediaJob {
  mediaId: string;
  projectId?: string;
}

/** One of media-service's queues (probes, storyboards, copies): BullMQ in the distributed mode, the process in all-in-one. */
export type MediaJobQueue = JobQueue<MediaJob>;

/** Attempts per job before it fails for good (a dependency blip, not bad input: bad input fails at once). */
export const MEDIA_JOB_ATTEMPTS = 3;

/** The job of an id (a media's, a copy's) for a project. */
export const mediaJob = ({ id, projectId }: { id: string; projectId: string }): JobToQueue<MediaJob> => ({ id, data: { mediaId: id, projectId } });

/**
 * How a media queue runs its jobs in either mode: `concurrency` at a time, shared fairly
 * between projects with at most `perProject` of one project's running (default: no cap),
 * each retried twice, a second then two apart.
 */
export function mediaJobSettings(name: string, label: string, concurrency: number, perProject = concurrency): JobQueueSettings<MediaJob> {
  return { name, label, concurrency, perGroup: perProject, attempts: MEDIA_JOB_ATTEMPTS, backoffMs: 1000, groupOf: (job) => job.projectId };
}

/** Provider token of the probe jobs' queue (BullMQ `media-jobs`, or in process). */
export const PROBE_QUEUE = Symbol('ProbeQueue');
