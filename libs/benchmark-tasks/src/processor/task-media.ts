import { BlobMeter, BlobNotFoundError, BlobTooLargeError, openBlobFile, temporaryFile, type BlobFile, type BlobStore } from '@cinetrace/blob-store';
import type { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, Patterns, type ProjectContext, type TaskJob } from '@cinetrace/contracts';
import { probeMedia, type MediaProbe, type MediaTools } from '@cinetrace/media-tools';
import { OutboundError, type OutboundClient } from '@cinetrace/outbound';
import { ScorerError, type MediaAccess, type OpenedMedia } from '@cinetrace/scorers';
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AttemptLimit } from './attempt-limit';

/** What the worker reads media with (ARCHITECTURE.md, Media: "reading media from the blob store by id"). */
export interface TaskMediaDeps {
  /** media-service (MediaGet, MediaBlob) and benchmark-service (TaskOutput). */
  bus: Pick<BusClient, 'request'>;
  blobs: BlobStore;
  /** For `{ url }` references: public addresses only, no redirects, within the attempt's time. */
  outbound: OutboundClient;
  /** ffmpeg and ffprobe, looked up at the first video scorer (a missing one fails that score, not the boot). */
  tools: () => MediaTools;
  /** The largest media a `{ url }` may be (MEDIA_MAX_BYTES). */
  maxBytes: number;
  /** How long a media still being probed by media-service is waited for before it is probed here. */
  pendingWaitMs?: number;
}

const DEFAULT_PENDING_WAIT_MS = 3000;
const PENDING_POLL_MS = 250;
const MEDIA_ID_PATTERN = /^med_[0-9a-z]{26}$/;

/**
 * The video scorers' access to media for one task: a reference the output or the item names
 * is opened as a file (removed by `release` when it is a copy), from the project's blob store for
 * `{ mediaId }` (only a media of the task's project: media-service scopes the lookup by it) or
 * fetched under the outbound rules for `{ url, contentType }`, size-capped. Every failure is a
 * ScorerError the score shows, never a crash.
 */
export class TaskMedia {
  constructor(private readonly deps: TaskMediaDeps) {}

  forTask(job: TaskJob, limit: AttemptLimit): MediaAccess {
    return {
      open: (reference, what) => this.open(job, limit, reference, what),
      outputInRun: (runId) => this.outputInRun(job, runId),
      ffmpeg: () => this.deps.tools().ffmpeg,
    };
  }

  private async open(job: TaskJob, limit: AttemptLimit, reference: unknown, what: string): Promise<OpenedMedia> {
    const ref = parseReference(reference, what);
    const { file, probe } = 'mediaId' in ref ? await this.projectMedia(job, limit, ref.mediaId, what) : { file: await this.fetchUrl(limit, ref.url, what), probe: undefined };
    try {
      return { path: file.path, probe: probe ?? (await this.probeHere(file.path, limit, what)), release: () => file.release() };
    } catch (err) {
      await file.release();
      throw err;
    }
  }

  /**
   * A media of the task's project, as a file (the filesystem storage's own, else a copy) and
   * its stored probe when media-service has one.
   */
  private async projectMedia(job: TaskJob, limit: AttemptLimit, id: string, what: string): Promise<{ file: BlobFile; probe: MediaProbe | undefined }> {
    const ctx = workerContext(job);
    let media = await this.ask(() => this.deps.bus.request(Patterns.MediaGet, { ctx, id }), id, what);
    const waitUntil = Date.now() + Math.min(this.deps.pendingWaitMs ?? DEFAULT_PENDING_WAIT_MS, limit.remainingMs());
    while (media.status === 'pending' && Date.now() < waitUntil) {
      await sleep(PENDING_POLL_MS, undefined, { signal: limit.signal }).catch(() => undefined);
      limit.throwIfStopped();
      media = await this.ask(() => this.deps.bus.request(Patterns.MediaGet, { ctx, id }), id, what);
    }
    if (media.status === 'failed') throw new ScorerError(`${what} (media '${id}') failed its probe: ${media.error ?? 'not media'}`);
    const blob = await this.ask(() => this.deps.bus.request(Patterns.MediaBlob, { ctx, id }), id, what);
    let file: BlobFile;
    try {
      if (!(await this.deps.blobs.stat(blob.key))) throw new BlobNotFoundError(blob.key);
      file = await openBlobFile(this.deps.blobs, blob.key, limit.signal);
    } catch {
      limit.throwIfStopped();
      // The storage's own error names paths or buckets of this deployment: not the user's business.
      throw new ScorerError(`${what} (media '${id}') could not be read from the media storage`);
    }
    // Still pending after the wait: probed here instead (media-service will settle its own row).
    return { file, probe: media.status === 'ready' && media.probe ? media.probe : undefined };
  }

  private async fetchUrl(limit: AttemptLimit, url: string, what: string): Promise<BlobFile> {
    const meter = new BlobMeter(this.deps.maxBytes);
    const file = await temporaryFile();
    try {
      await this.deps.outbound.getStream(url, { timeoutMs: limit.remainingMs(), signal: limit.signal, targetType: 'scorer' }, (body: Readable) =>
        pipeline(body, meter, createWriteStream(file.path, { flags: 'wx', mode: 0o600 })),
      );
      return file;
    } catch (err) {
      await file.release();
      limit.throwIfStopped();
      if (err instanceof BlobTooLargeError) throw new ScorerError(`${what} is larger than ${this.deps.maxBytes} bytes`);
      if (err instanceof OutboundError) throw new ScorerError(`${what} could not be fetched: ${err.message}`);
      throw err;
    }
  }

  private async probeHere(path: string, limit: AttemptLimit, what: string): Promise<MediaProbe> {
    const outcome = await probeMedia(this.deps.tools().ffprobe, path, { timeoutMs: Math.max(1, limit.remainingMs()) });
    if (!outcome.ok) throw new ScorerError(`${what} is not media ffprobe can read: ${outcome.reason}`);
    return outcome.probe;
  }

  private async outputInRun(job: TaskJob, runId: string): Promise<unknown> {
    const reply = await this.ask(
      () => this.deps.bus.request(Patterns.TaskOutput, { projectId: job.projectId, runId, itemId: job.item.id, itemIndex: job.item.index }),
      runId,
      `run ${runId}`,
    );
    if (reply.output === null || reply.output === undefined) throw new ScorerError(`run ${runId} has no output for this item (its task is ${reply.status})`);
    return reply.output;
  }

  /** A bus answer, or a ScorerError that says what was not found or who did not answer. */
  private async ask<T>(call: () => Promise<T>, id: string, what: string): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) throw new ScorerError(`${what}: '${id}' was not found in this project`);
      throw new ScorerError(`${what}: '${id}' could not be looked up (${err instanceof DomainError ? err.detail : 'no answer'})`);
    }
  }
}

type MediaReference = { mediaId: string } | { url: string; contentType?: string };

/** `{ mediaId }` or `{ url, contentType }` (API.md, Media), as an output or an item names it. */
function parseReference(value: unknown, what: string): MediaReference {
  const ref = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  if (typeof ref.mediaId === 'string') {
    if (!MEDIA_ID_PATTERN.test(ref.mediaId)) throw new ScorerError(`${what} names '${ref.mediaId.slice(0, 60)}', which is not a media id`);
    return { mediaId: ref.mediaId };
  }
  if (typeof ref.url === 'string') return { url: ref.url, contentType: typeof ref.contentType === 'string' ? ref.contentType : undefined };
  throw new ScorerError(`${what} is not a media reference ({ mediaId } or { url, contentType })`);
}

/**
 * The worker acts for the task's project, not for a caller: media-service scopes every lookup by
 * the project id, which is all it reads of this context.
 */
function workerContext(job: TaskJob): ProjectContext {
  return { orgId: '', apiKeyId: '', requestId: job.taskId, projectId: job.projectId };
}
