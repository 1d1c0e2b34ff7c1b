import type { Readable } from 'node:stream';

/** What a put stored: its key (`<scope>/<sha256>`), the SHA-256 of its bytes (hex) and their count. */
export interface StoredBlob {
  key: string;
  sha256: string;
  bytes: number;
}

/** Bytes `start` to `end` inclusive (HTTP's `bytes=start-end`; no end: to the last), or the last `suffix` bytes (`bytes=-suffix`). */
export type ByteRange = { start: number; end?: number } | { suffix: number };

/** A read: the body streams bytes `start` to `end` (inclusive) of the `totalBytes` the blob holds. */
export interface BlobRead {
  body: Readable;
  start: number;
  end: number;
  totalBytes: number;
}

export interface PutOptions {
  /** A source that goes past this many bytes fails with BlobTooLargeError and leaves nothing stored. */
  maxBytes: number;
  contentType?: string;
}

/**
 * Where media bytes live: a filesystem (FsBlobStore) or an S3-compatible bucket
 * (S3BlobStore). Bytes always stream through (nothing holds a whole blob in memory), and a
 * blob is addressed by its content within a scope (a project): the same bytes put twice
 * give the same key, stored once.
 */
export interface BlobStore {
  /**
   * Streams `source` in, hashing and counting as it goes; the blob appears whole or not at all.
   * A failed put destroys `source` (a request stream's socket with it): a caller that must still
   * answer on that connection (413) hands over a stream of its own in between.
   */
  put(scope: string, source: Readable, options: PutOptions): Promise<StoredBlob>;
  /**
   * Streams `source` in under a key derived from a stored blob (derivedBlobKey: a frame of a
   * media, beside its bytes), whole or not at all; a blob already there is replaced. Capped
   * at `maxBytes` like a put. Answers the bytes stored.
   */
  putDerived(key: string, source: Readable, options: PutOptions): Promise<{ bytes: number }>;
  /** The blob's bytes, or those of `range`. BlobNotFoundError, BlobRangeError. */
  get(key: string, range?: ByteRange): Promise<BlobRead>;
  /** Its size, or undefined when there is no such blob. */
  stat(key: string): Promise<{ bytes: number } | undefined>;
  /** Removes it; a blob that is not there is no error. */
  delete(key: string): Promise<void>;
}

/** The source had more bytes than `maxBytes` (an upload past MEDIA_MAX_BYTES: 413). */
export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`no blob ${key}`);
  }
}

/** A range that starts past the end (HTTP 416, with the blob's size for Content-Range). */
export class BlobRangeError extends Error {
  override name = 'BlobRangeError';
  constructor(readonly totalBytes: number) {
    super(`range not satisfiable: the blob holds ${totalBytes} bytes`);
  }
}

// Scopes are ids (`prj_…`): nothing that could climb out of a directory or a key prefix.
const SCOPE = /^[A-Za-z0-9_-]{1,128}$/;
const KEY = /^([A-Za-z0-9_-]{1,128})\/([0-9a-f]{64})$/;
/** What a derived key adds to its blob's: `.frame-1500.jpg`. No `/`, so it stays beside its blob. */
const DERIVED_SUFFIX = /^\.[a-z0-9-]{1,64}(\.[a-z0-9]{1,8})?$/;
const DERIVED_KEY = /^([A-Za-z0-9_-]{1,128})\/([0-9a-f]{64})\.[a-z0-9-]{1,64}(\.[a-z0-9]{1,8})?$/;

export function blobKey(scope: string, sha256: string): string {
  if (!SCOPE.test(scope)) throw new TypeError('a blob scope is 1..128 letters, digits, _ or -');
  return `${scope}/${sha256}`;
}

/** The key of something made from the blob `key` (a frame of a video): `<scope>/<sha256><suffix>`, stored beside it. */
export function derivedBlobKey(key: string, suffix: string): string {
  if (!KEY.test(key)) throw new TypeError('a derived key starts from a blob key');
  if (!DERIVED_SUFFIX.test(suffix)) throw new TypeError('a derived key suffix is `.name` or `.name.ext` in lower-case letters, digits and -');
  return `${key}${suffix}`;
}

/** Throws on anything that is not a key this store made (`<scope>/<sha256>`, or one derived from it), before it reaches a path or a bucket. */
export function checkBlobKey(key: string): string {
  if (!KEY.test(key) && !DERIVED_KEY.test(key)) throw new BlobNotFoundError(key);
  return key;
}

/** Throws on anything that is not a derived key (derivedBlobKey). */
export function checkDerivedBlobKey(key: string): string {
  if (!DERIVED_KEY.test(key)) throw new TypeError(`not a derived blob key: ${key}`);
  return key;
}

/** The inclusive byte span a range names in a blob of `totalBytes`, as HTTP reads it (an end past the last byte is the last). */
export function resolveRange(range: ByteRange | undefined, totalBytes: number): { start: number; end: number } {
  const last = totalBytes - 1;
  if (range === undefined) return { start: 0, end: Math.max(last, -1) };
  if ('suffix' in range) {
    if (!Number.isSafeInteger(range.suffix) || range.suffix <= 0 || totalBytes === 0) throw new BlobRangeError(totalBytes);
    return { start: Math.max(0, totalBytes - range.suffix), end: last };
  }
  const { start, end = last } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || start > last) throw new BlobRangeError(totalBytes);
  return { start, end: Math.min(end, last) };
}
