import { BlobNotFoundError, BlobRangeError, BlobTooLargeError, type BlobRead, type BlobStore, type ByteRange, type StoredBlob } from '@cinetrace/blob-store';
import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { fetchMedia, type FetchedMedia, NotMediaError } from '@cinetrace/media-fetch';
import { OutboundClient, OutboundError } from '@cinetrace/outbound';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { GatewayEnv } from '../gateway.env';

/** Provider token of the gateway's blob store (libs/blob-store, from the media storage settings). */
export const MEDIA_BLOBS = Symbol('MediaBlobs');

/** A 416 that names the content's size in Content-Range, as RFC 9110 §15.5.17 asks. */
export class RangeNotSatisfiableError extends DomainError {
  readonly headers: Record<string, string>;
  constructor(totalBytes: number) {
    super(ErrorCode.RangeNotSatisfiable, `The range is outside the content, which holds ${totalBytes} bytes`);
    this.headers = { 'content-range': `bytes */${totalBytes}` };
  }
}

/**
 * Bytes in and out of the media storage for the media routes: an upload's request stream or
 * a `{ url }`'s answer streamed into BlobStore.put (hashed, counted and capped at
 * MEDIA_MAX_BYTES as they pass; nothing holds a whole file), and ranged reads back out.
 * Storage failures are 503s (retry); the client's own faults name what to fix.
 */
@Injectable()
export class MediaIntake implements OnApplicationShutdown {
  private readonly logger = new Logger(MediaIntake.name);
  private readonly outbound: OutboundClient;

  constructor(
    private readonly env: GatewayEnv,
    @Inject(MEDIA_BLOBS) private readonly blobs: BlobStore,
  ) {
    this.outbound = new OutboundClient({ allowPrivate: env.OUTBOUND_ALLOW_PRIVATE, userAgent: 'cinetrace-media' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.outbound.close();
  }

  /** Streams an upload's body into the project's storage. */
  async upload(projectId: string, body: Readable, request: IncomingMessage): Promise<StoredBlob> {
    const declared = Number(request.headers['content-length']);
    if (declared > this.env.MEDIA_MAX_BYTES) throw this.tooLarge();
    // put() destroys a source it fails on; the request's socket must survive to carry the 413, so it gets a stream of its own.
    const source = new PassThrough();
    body.on('error', (err) => source.destroy(err));
    // put() reports the source's error; this keeps a late one (the client leaving after put() gave up) handled.
    source.on('error', () => undefined);
    request.once('close', () => {
      if (!request.complete) source.destroy(new ClientGoneError());
    });
    // eslint-disable-next-line no-restricted-syntax -- both ends have error listeners; pipeline() would destroy the request, whose socket carries the 413
    body.pipe(source);
    return this.put(projectId, source);
  }

  /** Fetches `url` under the outbound rules and streams its answer into the project's storage (libs/media-fetch); `contentType` overrides the answer's. */
  async fetch(projectId: string, url: string, contentType: string | undefined): Promise<FetchedMedia> {
    try {
      return await fetchMedia(this.outbound, this.blobs, projectId, url, { contentType, maxBytes: this.env.MEDIA_MAX_BYTES, timeoutMs: this.env.MEDIA_FETCH_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof NotMediaError) throw DomainError.validation([{ path: 'url', message: err.message }]);
      if (err instanceof OutboundError) throw DomainError.validation([{ path: 'url', message: err.message.replace(/^url /, '') }], 'The media could not be fetched');
      throw this.storageError(err);
    }
  }

  /** The stored bytes, or those of `range`. */
  async read(key: string, range: ByteRange | undefined): Promise<BlobRead> {
    try {
      return await this.blobs.get(key, range);
    } catch (err) {
      if (err instanceof BlobRangeError) throw new RangeNotSatisfiableError(err.totalBytes);
      if (err instanceof BlobNotFoundError) throw DomainError.notFound("The media's bytes are not in the storage");
      this.logger.warn(`Media storage read failed: ${(err as Error).message}`);
      throw new DomainError(ErrorCode.Unavailable, 'The media storage is unavailable; retry later');
    }
  }

  private async put(projectId: string, source: Readable): Promise<StoredBlob> {
    try {
      return await this.blobs.put(projectId, source, { maxBytes: this.env.MEDIA_MAX_BYTES });
    } catch (err) {
      if (err instanceof ClientGoneError) throw new DomainError(ErrorCode.MalformedRequest, 'The body could not be read: the connection ended before it was complete');
      throw this.storageError(err);
    }
  }

  /** What a failed put means to the client: too large (413), or the storage away (503). */
  private storageError(err: unknown): unknown {
    if (err instanceof BlobTooLargeError) return this.tooLarge();
    if (err instanceof DomainError || err instanceof OutboundError) return err;
    this.logger.warn(`Media storage write failed: ${(err as Error).message}`);
    return new DomainError(ErrorCode.Unavailable, 'The media storage is unavailable; retry later');
  }

  private tooLarge(): DomainError {
    return new DomainError(ErrorCode.PayloadTooLarge, `The media is larger than the limit (${this.env.MEDIA_MAX_BYTES} bytes, MEDIA_MAX_BYTES)`);
  }
}

/** The client closed the connection before its body was complete. */
class ClientGoneError extends Error {}
