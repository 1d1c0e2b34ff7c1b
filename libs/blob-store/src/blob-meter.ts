import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from './blob-store';

/**
 * Passes bytes through while hashing (SHA-256) and counting them, and fails the stream as
 * soon as they pass `maxBytes`: the limit is enforced while streaming, never after buffering.
 */
export class BlobMeter extends Transform {
  private readonly hash = createHash('sha256');
  private count = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.count += chunk.length;
    if (this.count > this.maxBytes) return callback(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** The hash and count, once the stream has ended. */
  digest(): { sha256: string; bytes: number } {
    return { sha256: this.hash.digest('hex'), bytes: this.count };
  }
}
