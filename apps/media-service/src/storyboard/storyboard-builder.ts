import type { BlobStore } from '@cinetrace/blob-store';
import { detectSceneCuts, MediaToolRunError, MediaUnreadableError, type MediaTool } from '@cinetrace/media-tools';
import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { withMediaFile } from '../frames/media-file';
import type { MediaJobQueue } from '../media/media-jobs';
import { findMediaById, saveStoryboard } from '../store/media.queries';
import { storyboardTimes } from './storyboard-times';

/**
 * The storyboard job: scene cuts of a ready video (ffmpeg in a child process, bounded by
 * STORYBOARD_TIMEOUT_MS), made into keyframes (storyboardTimes) and stored on the media row.
 * A video ffmpeg cannot read, or that takes longer than the limit, is recorded as such at
 * once (another attempt would fail alike); a failure of the machinery (storage away) throws
 * for a retry and is recorded on the last attempt.
 */
export class StoryboardBuilder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StoryboardBuilder');

  constructor(
    private readonly dataSource: DataSource,
    private readonly blobs: BlobStore,
    private readonly jobs: MediaJobQueue,
    private readonly ffmpeg: () => MediaTool,
    private readonly timeoutMs: number,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(({ data, lastAttempt }) => this.build(data.mediaId, lastAttempt));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.jobs.close();
  }

  async build(mediaId: string, lastAttempt: boolean): Promise<void> {
    const media = await findMediaById(this.dataSource.manager, mediaId);
    const durationMs = media?.probe?.durationMs;
    if (!media || media.status !== 'ready' || media.storyboard || !durationMs) return;
    let cuts: number[];
    try {
      cuts = await withMediaFile(this.blobs, media.blobKey, this.timeoutMs, (path) => detectSceneCuts(this.ffmpeg(), path, { timeoutMs: this.timeoutMs }));
    } catch (err) {
      const tooLong = err instanceof MediaToolRunError && err.failure === 'timeout';
      if (!tooLong && !(err instanceof MediaUnreadableError) && !lastAttempt) throw err;
      this.logger.warn(`Storyboard of ${mediaId} failed: ${(err as Error).message}`);
      const reason = tooLong ? `scene detection took longer than ${this.timeoutMs} ms (STORYBOARD_TIMEOUT_MS)` : (err as Error).message;
      await saveStoryboard(this.dataSource.manager, mediaId, { error: reason });
      return;
    }
    await saveStoryboard(this.dataSource.manager, mediaId, { atMs: storyboardTimes(cuts, durationMs) });
  }
}
