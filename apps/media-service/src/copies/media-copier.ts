import { BlobTooLargeError, type BlobStore } from '@cinetrace/blob-store';
import { fetchMedia, NotMediaError } from '@cinetrace/media-fetch';
import { countMediaCopy } from '@cinetrace/metrics';
import { OutboundError, type OutboundClient } from '@cinetrace/outbound';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { MediaService } from '../media/media.service';
import { findCopy, settleCopy } from '../store/media-copies.queries';
import { TraceMediaWriteBack } from './trace-media-write-back';

export interface MediaCopierLimits {
  /** MEDIA_MAX_BYTES: a larger media is not copied. */
  maxBytes: number;
  /** MEDIA_FETCH_TIMEOUT_MS: the whole fetch, body included. */
  timeoutMs: number;
}

/**
 * A copy job: fetches the URL a trace output named under the outbound rules into the
 * project's storage (libs/media-fetch, as `POST /api/v1/media { url }` does), registers it as
 * a media (the same bytes already held are that media), whose probe then runs, and writes
 * the media back into the outputs. An answer that will not change (a refused address, a
 * 4xx, not media, too large) fails the copy at once; a dependency's blip (a timeout, a 5xx,
 * the storage away) throws for a retry and fails it on the last attempt. A failed copy leaves
 * the outputs as they were and is logged (the host and the reason, never the URL: signed
 * URLs carry keys).
 */
export class MediaCopier implements OnApplicationShutdown {
  private readonly logger = new Logger('MediaCopier');

  constructor(
    private readonly dataSource: DataSource,
    private readonly blobs: BlobStore,
    private readonly outbound: OutboundClient,
    private readonly media: MediaService,
    private readonly writeBack: TraceMediaWriteBack,
    private readonly limits: MediaCopierLimits,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.outbound.close();
  }

  async copy(copyId: string, lastAttempt: boolean): Promise<void> {
    const copy = await findCopy(this.dataSource.manager, copyId);
    if (!copy || copy.status !== 'pending') return;
    let outcome: { status: 'copied'; mediaId: string } | { status: 'failed'; error: string };
    try {
      const { blob, contentType } = await fetchMedia(this.outbound, this.blobs, copy.projectId, copy.url, { contentType: copy.contentType, ...this.limits });
      const { media } = await this.media.registerBlob(copy.projectId, { ...blob, contentType, sourceUrl: copy.url });
      outcome = { status: 'copied', mediaId: media.id };
    } catch (err) {
      const reason = lastingFailure(err, this.limits.maxBytes);
      if (reason === undefined && !lastAttempt) throw err;
      outcome = { status: 'failed', error: reason ?? `the copy kept failing: ${(err as Error).message}` };
      this.logger.warn(`Copy ${copyId} of a media named by a trace output of project ${copy.projectId} failed: ${outcome.error}`);
    }
    if (!(await settleCopy(this.dataSource.manager, copyId, outcome))) return;
    countMediaCopy(outcome.status);
    // The copy is settled either way; a write-back that cannot be published now is published by the sweep.
    await this.writeBack.forCopies([copyId]).catch((err: Error) => this.logger.warn(`Media of copy ${copyId} not written back yet (the sweep will): ${err.message}`));
  }
}

/** Why a copy can never succeed, or undefined when another attempt may. Messages name the host or status, never the URL. */
function lastingFailure(err: unknown, maxBytes: number): string | undefined {
  if (err instanceof NotMediaError) return err.message;
  if (err instanceof BlobTooLargeError) return `the media is larger than MEDIA_MAX_BYTES (${maxBytes} bytes)`;
  if (!(err instanceof OutboundError)) return undefined;
  const retryable =
    err.reason === 'timeout' ||
    err.reason === 'network' ||
    err.reason === 'aborted' ||
    (err.reason === 'http_status' && (err.status === undefined || err.status >= 500 || err.status === 408 || err.status === 429));
  return retryable ? undefined : err.message;
}
