import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BlobMeter } from './blob-meter';
import {
  blobKey,
  BlobNotFoundError,
  checkBlobKey,
  checkDerivedBlobKey,
  resolveRange,
  type BlobRead,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type StoredBlob,
} from './blob-store';

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Parts of a multipart upload; what one put holds in memory is about partSize × queueSize. Default 8 MiB. */
  partSize?: number;
  /** Parts uploaded at once. Default 2. */
  queueSize?: number;
}

/** Objects of puts in progress, renamed (copied) to `<scope>/<sha256>` once their hash is known. */
const INCOMING = '.incoming/';

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Blobs as objects of an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, GCS's XML API), key
 * `<scope>/<sha256>`. A put streams to a temporary object by multipart upload (lib-storage),
 * hashing as it goes, then copies it to its content key inside the bucket (no byte passes
 * through this process again; CopyObject takes up to 5 GiB) and deletes the temporary one.
 * A failed put aborts its multipart upload, so nothing is left behind.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
  }

  async put(scope: string, source: Readable, options: PutOptions): Promise<StoredBlob> {
    blobKey(scope, '0'.repeat(64)); // checks the scope before anything is sent
    const temporary = `${INCOMING}${randomUUID()}`;
    const { sha256, bytes } = await this.upload(temporary, source, options);
    const key = blobKey(scope, sha256);
    try {
      if (!(await this.stat(key))) {
        await this.client.send(
          new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${temporary}`, ContentType: options.contentType, MetadataDirective: 'REPLACE' }),
        );
      }
    } finally {
      await this.deleteObject(temporary);
    }
    return { key, sha256, bytes };
  }

  async putDerived(key: string, source: Readable, options: PutOptions): Promise<{ bytes: number }> {
    checkDerivedBlobKey(key);
    // An object appears whole once its upload completes, so the key itself is the target (no copy, unlike put).
    const { bytes } = await this.upload(key, source, options);
    return { bytes };
  }

  /**
   * Streams `source` to the object `key` by multipart upload, measured and hashed on the way
   * and bounded by `options.maxBytes`; a failed or refused upload leaves no object behind.
   */
  private async upload(key: string, source: Readable, options: PutOptions): Promise<{ sha256: string; bytes: number }> {
    const meter = new BlobMeter(options.maxBytes);
    let failure: Error | undefined;
    source.once('error', (err) => meter.destroy(err));
    meter.once('error', (err) => {
      failure ??= err;
      source.destroy(); // as pipeline does on the filesystem driver: nothing reads it any more
    });
    const upload = new Upload({
      client: this.client,
      // eslint-disable-next-line no-restricted-syntax -- the source's error destroys the meter (above), whose error fails the upload
      params: { Bucket: this.bucket, Key: key, Body: source.pipe(meter), ContentType: options.contentType },
      partSize: this.options.partSize ?? 8 * 1024 * 1024,
      queueSize: this.options.queueSize ?? 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      // The stream's own error (too large, the client went away) says more than the SDK's wrapping of it.
      throw failure ?? err;
    }
    if (failure) {
      await this.deleteObject(key);
      throw failure;
    }
    return meter.digest();
  }

  async get(key: string, range?: ByteRange): Promise<BlobRead> {
    const size = await this.stat(checkBlobKey(key));
    if (!size) throw new BlobNotFoundError(key);
    const { start, end } = resolveRange(range, size.bytes);
    if (size.bytes === 0) return { body: Readable.from([]), start, end, totalBytes: 0 };
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end}` }));
      return { body: answer.Body as Readable, start, end, totalBytes: size.bytes };
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<{ bytes: number } | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
      return { bytes: head.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.deleteObject(checkBlobKey(key));
  }

  private async deleteObject(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
