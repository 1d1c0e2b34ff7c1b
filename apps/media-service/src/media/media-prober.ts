import { BlobNotFoundError, FsBlobStore, type BlobStore } from '@cinetrace/blob-store';
import { type MediaTool, probeMedia } from '@cinetrace/media-tools';
import { observeMediaProbe } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { findMediaById, settleMedia } from '../store/media.queries';

/**
 * A probe job: hands a pending media's blob to ffprobe (a child process, bounded in time
 * and output) and records `ready` with the probe or `failed` with the reason. Bytes that are
 * not media are `failed` at once; a failure of the machinery (storage away, ffprobe killed)
 * throws for a retry, and is recorded as `failed` on the last attempt.
 */
export class MediaProber {
  private readonly logger = new Logger('MediaProber');

  constructor(
    private readonly dataSource: DataSource,
    private readonly blobs: BlobStore,
    private readonly ffprobe: () => MediaTool,
    private readonly limits: { timeoutMs: number; maxPixels?: number },
    /** Told each media whose probe this settled (the trace outputs naming it get their seconds). */
    private readonly settled: (mediaId: string) => Promise<void> = async () => undefined,
  ) {}

  async probe(mediaId: string, lastAttempt: boolean): Promise<void> {
    const started = performance.now();
    const media = await findMediaById(this.dataSource.manager, mediaId);
    if (!media || media.status !== 'pending') return;
    let outcome;
    try {
      const source = await this.source(media.blobKey);
      outcome = await probeMedia(this.ffprobe(), source, this.limits);
      // A file is looked for only when ffprobe could not read it (a stat first would delay every probe).
      if (!outcome.ok && typeof source === 'string' && !(await this.blobs.stat(media.blobKey))) throw new BlobNotFoundError(media.blobKey);
    } catch (err) {
      if (err instanceof BlobNotFoundError) outcome = { ok: false as const, reason: 'the stored bytes are missing' };
      else if (!lastAttempt) {
        observeMediaProbe('retried', (performance.now() - started) / 1000);
        throw err;
      } else {
        this.logger.warn(`Probe of ${mediaId} failed for good: ${(err as Error).message}`);
        outcome = { ok: false as const, reason: 'probing failed (ffprobe or the media storage did not answer)' };
      }
    }
    const settled = await settleMedia(this.dataSource.manager, mediaId, outcome.ok ? { status: 'ready', probe: outcome.probe } : { status: 'failed', error: outcome.reason });
    observeMediaProbe(outcome.ok ? 'ready' : 'failed', (performance.now() - started) / 1000);
    if (settled) await this.settled(mediaId).catch((err: Error) => this.logger.warn(`Media ${mediaId} probed, its trace outputs not told yet (the sweep will): ${err.message}`));
  }

  /**
   * The filesystem storage's own file, else the stored bytes as a stream. By path ffprobe seeks
   * to an MP4's index where it is (ffmpeg writes it last): through a pipe it had to read every
   * byte before it.
   */
  private async source(key: string): Promise<string | Readable> {
    if (!(this.blobs instanceof FsBlobStore)) return (await this.blobs.get(key)).body;
    return this.blobs.filePath(key);
  }
}
