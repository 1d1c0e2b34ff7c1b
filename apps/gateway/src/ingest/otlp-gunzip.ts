import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { gunzipSync } from 'node:zlib';

/**
 * Exports up to this size (decompressed) are decoded on the event loop, a few milliseconds
 * at most: handing a small export to a thread costs more than decoding it there.
 */
export const ON_LOOP_MAX_BYTES = 256 * 1024;

/**
 * Decompresses a gzip body, stopping at `maxBytes` of output (a gzip bomb costs at most that
 * much memory): throws the DomainError the client is told, 413 past the limit, 400 for bytes
 * that are not gzip. Synchronous: on the event loop only with a small `maxBytes`
 * (ON_LOOP_MAX_BYTES, well under a millisecond), on a decoding thread for the rest.
 */
export function gunzipWithin(bytes: Uint8Array, maxBytes: number, limitForMessage = maxBytes): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    if (isTooLarge(err)) throw new DomainError(ErrorCode.PayloadTooLarge, `The body is larger than the limit (${limitForMessage} bytes) once decompressed`);
    throw new DomainError(ErrorCode.MalformedRequest, 'The body is not valid gzip');
  }
}

/** Whether an error is zlib stopping at its output limit. */
export const isTooLarge = (err: unknown): boolean => (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
