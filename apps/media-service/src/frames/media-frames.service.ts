import { derivedBlobKey, type BlobStore } from '@cinetrace/blob-store';
import { DomainError, ErrorCode, type MediaFrameBlobView, type ProjectContext } from '@cinetrace/contracts';
import { extractFrame, MediaUnreadableError, type MediaTool } from '@cinetrace/media-tools';
import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { findMedia } from '../store/media.queries';
import { pictureProbe } from '../media/media-readiness';
import { FairLimit } from '@cinetrace/job-queue';
import { withMediaFile } from './media-file';

/** A frame is a JPEG of at most 1280 pixels wide: far below this. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/**
 * ffmpeg's nice value for a render of a project that has others in line: a project asking
 * frames one at a time (a person scrubbing a clip) is served first when the cores are busy,
 * not only first in line. Ten steps of nice are about a tenth of the CPU against the usual one.
 */
export const BACKLOG_NICENESS = 10;

export interface FrameLimits {
  /** ffmpeg runs at once in this process; more requests wait their turn. */
  concurrency: number;
  /** One project's renders at once (FairLimit): its other requests wait their turn, another project's go ahead. Default: no cap. */
  perProject?: number;
  /** The largest picture (width × height) decoded; a larger media's frames are refused. */
  maxPixels?: number;
  /** One frame's whole render (a copy of the bytes from a remote storage included); past it, 503. */
  timeoutMs: number;
}

/**
 * Frames of a project's media: the JPEG of an instant, rendered by ffmpeg at the first request
 * and stored as a blob beside the media's (`<project>/<sha256>.frame-<ms>.jpg`), so every
 * later request is a read the gateway streams. The media's bytes never change (they are
 * addressed by their hash), so a stored frame is never stale. Rendering is bounded in time
 * (it answers within a bus request) and in concurrency, shared fairly between projects (one
 * project's requests never hold another's behind all of theirs), and two requests for one
 * frame share one render.
 */
export class MediaFramesService {
  private readonly logger = new Logger('MediaFrames');
  private readonly slots: FairLimit;
  private readonly rendering = new Map<string, Promise<MediaFrameBlobView>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly blobs: BlobStore,
    private readonly ffmpeg: () => MediaTool,
    private readonly limits: FrameLimits,
  ) {
    this.slots = new FairLimit(limits.concurrency, limits.perProject ?? limits.concurrency);
  }

  async frame(ctx: ProjectContext, id: string, atMs: number): Promise<MediaFrameBlobView> {
    if (!Number.isSafeInteger(atMs) || atMs < 0) throw DomainError.validation([{ path: 'atMs', message: 'must be an integer of 0 or more (milliseconds)' }]);
    const media = await findMedia(this.dataSource.manager, ctx.projectId, id);
    if (!media) throw DomainError.notFound(`No media '${id}' in this project`);
    // An image has no duration: its one picture is at 0.
    const endMs = pictureProbe(media, 'frames').durationMs ?? 0;
    if (atMs > endMs) throw DomainError.validation([{ path: 'atMs', message: `is past the end of the media (${endMs} ms)` }]);
    const key = derivedBlobKey(media.blobKey, `.frame-${atMs}.jpg`);
    const stored = await this.blobs.stat(key);
    if (stored) return { key, bytes: stored.bytes };
    let render = this.rendering.get(key);
    if (!render) {
      // Lowered when others of its project are in line or rendering beside it.
      render = this.slots
        .run(ctx.projectId, ({ othersOfGroup }) => this.render(media.blobKey, key, atMs, othersOfGroup ? BACKLOG_NICENESS : 0))
        .finally(() => this.rendering.delete(key));
      this.rendering.set(key, render);
    }
    return render;
  }

  private async render(mediaKey: string, key: string, atMs: number, niceness: number): Promise<MediaFrameBlobView> {
    const deadline = Date.now() + this.limits.timeoutMs;
    let jpeg: Buffer | null;
    try {
      jpeg = await withMediaFile(this.blobs, mediaKey, this.limits.timeoutMs, (path) =>
        extractFrame(this.ffmpeg(), path, { atMs, timeoutMs: Math.max(1, deadline - Date.now()), maxPixels: this.limits.maxPixels, niceness }),
      );
    } catch (err) {
      if (err instanceof MediaUnreadableError) throw new DomainError(ErrorCode.MediaNotReady, `The media's picture could not be decoded (${err.message})`);
      // Too slow, ffmpeg missing or killed, the storage away: the machinery, not the media.
      this.logger.warn(`Frame ${key} not rendered: ${(err as Error).message}`);
      throw new DomainError(ErrorCode.Unavailable, 'The frame could not be rendered now; retry later');
    }
    if (!jpeg) throw DomainError.validation([{ path: 'atMs', message: 'has no picture in this media' }]);
    const { bytes } = await this.blobs.putDerived(key, Readable.from([jpeg]), { maxBytes: MAX_FRAME_BYTES, contentType: 'image/jpeg' });
    return { key, bytes };
  }
}
