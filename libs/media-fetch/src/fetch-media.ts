import type { BlobStore, StoredBlob } from '@cinetrace/blob-store';
import { OutboundError, type OutboundClient } from '@cinetrace/outbound';
import { mediaTypeOf } from './media-types';

export interface FetchMediaOptions {
  /** The media's type when the caller knows it; else the answer's Content-Type, which must then be video, image or audio. */
  contentType?: string;
  /** The largest copy kept (MEDIA_MAX_BYTES): past it the put fails with BlobTooLargeError and nothing is stored. */
  maxBytes: number;
  /** How long the fetch may take, its whole body included. */
  timeoutMs: number;
}

export interface FetchedMedia {
  blob: StoredBlob;
  contentType: string;
}

/** The answer named no video, image or audio type, and the caller gave none. */
export class NotMediaError extends Error {
  override readonly name = 'NotMediaError';
  constructor() {
    super('answered a content type that is not video/*, image/* or audio/*: name the type in contentType');
  }
}

/**
 * A copy of the media at `url` in the project's storage: fetched under the outbound rules
 * (public addresses only unless the client allows private ones, no redirects, one time cap
 * over the whole body) and streamed into BlobStore.put, which hashes, counts and caps it as
 * it passes; nothing holds the whole file. Throws OutboundError (the fetch), NotMediaError,
 * BlobTooLargeError, or the storage's own error; the caller says what each means to its user.
 */
export function fetchMedia(outbound: OutboundClient, blobs: BlobStore, projectId: string, url: string, options: FetchMediaOptions): Promise<FetchedMedia> {
  return outbound.getStream(url, { timeoutMs: options.timeoutMs, targetType: 'media' }, async (body, head) => {
    // The body's errors are handled before anything else: undici's body emits one when it is
    // dropped unread, or when the peer cuts it off, and an 'error' nobody listens to ends the
    // process. put()'s pipeline still sees every error: this listener only keeps them handled.
    body.on('error', ignoreError);
    const contentType = options.contentType ?? mediaTypeOf(head.contentType);
    if (!contentType) {
      body.destroy();
      throw new NotMediaError();
    }
    try {
      return { blob: await blobs.put(projectId, body, { maxBytes: options.maxBytes }), contentType };
    } catch (err) {
      // The source broke off (its connection closed or reset mid-body): the fetch's failure, not the storage's.
      if (fromUndici(err)) throw new OutboundError('network', `the answer of ${new URL(url).host} broke off before its end`);
      throw err;
    }
  });
}

/** The listener that makes an error handled; who reads the stream reports it (it rejects their promise). */
function ignoreError(): void {}

/** undici's own errors (the body's socket closed, reset, cut off) carry codes `UND_ERR_…`; a storage's never do. */
function fromUndici(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('UND_ERR_');
}
