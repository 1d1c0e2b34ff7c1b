import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

/** Directory of the files being written, on the same filesystem as the blobs so that the final rename is atomic. */
const INCOMING = '.incoming';

/**
 * Blobs as files under `root` (all-in-one: `<DATA_DIR>/media`; distributed: a volume every
 * replica mounts): `<root>/<scope>/<sha256>`. A put writes a temporary file, flushes it to
 * disk and renames it into place, so a reader never sees half a blob and a crash leaves
 * only a temporary file behind (see `clearIncoming`).
 */
export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(scope: string, source: Readable, options: PutOptions): Promise<StoredBlob> {
    blobKey(scope, '0'.repeat(64)); // checks the scope before anything is written
    const { temporary, meter } = await this.receive(source, options);
    const { sha256, bytes } = meter.digest();
    const key = blobKey(scope, sha256);
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // The same bytes stored already: replacing them with themselves is harmless, and atomic.
    await rename(temporary, path);
    await syncDirectory(dirname(path));
    return { key, sha256, bytes };
  }

  async putDerived(key: string, source: Readable, options: PutOptions): Promise<{ bytes: number }> {
    const path = this.pathOf(checkDerivedBlobKey(key));
    const { temporary, meter } = await this.receive(source, options);
    try {
      await mkdir(dirname(path), { recursive: true });
      await rename(temporary, path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    await syncDirectory(dirname(path));
    return { bytes: meter.digest().bytes };
  }

  /**
   * Streams `source` into a new temporary file, hashed, counted and bounded by `maxBytes`; a
   * failure removes the file. The source's errors are held from the first line: one failing
   * (a client gone away) while the folder is still being made would otherwise be an
   * unhandled 'error' event, which takes the process down.
   */
  private async receive(source: Readable, options: PutOptions): Promise<{ temporary: string; meter: BlobMeter }> {
    let failure: unknown;
    const hold = (err: unknown) => (failure ??= err);
    source.on('error', hold);
    const temporary = join(this.root, INCOMING, randomUUID());
    const meter = new BlobMeter(options.maxBytes);
    try {
      await mkdir(dirname(temporary), { recursive: true });
      if (failure !== undefined) throw failure;
      await pipeline(source, meter, createWriteStream(temporary, { flags: 'wx', mode: 0o640, flush: true }));
      return { temporary, meter };
    } catch (err) {
      source.destroy();
      await rm(temporary, { force: true });
      throw failure ?? err;
    } finally {
      source.off('error', hold);
    }
  }

  /** Where a blob's file is: media-service runs ffmpeg on it in place (a seek reads only what it needs) instead of on a copy. */
  filePath(key: string): string {
    return this.pathOf(checkBlobKey(key));
  }

  async get(key: string, range?: ByteRange): Promise<BlobRead> {
    const path = this.pathOf(checkBlobKey(key));
    const size = await this.stat(key);
    if (!size) throw new BlobNotFoundError(key);
    const { start, end } = resolveRange(range, size.bytes);
    // An empty blob has no byte 0 to start from: an empty stream.
    const body = size.bytes === 0 ? Readable.from([]) : createReadStream(path, { start, end });
    return { body, start, end, totalBytes: size.bytes };
  }

  async stat(key: string): Promise<{ bytes: number } | undefined> {
    try {
      const info = await stat(this.pathOf(checkBlobKey(key)));
      return info.isFile() ? { bytes: info.size } : undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(checkBlobKey(key)), { force: true });
  }

  /**
   * Removes what interrupted puts left: temporary files untouched for `olderThanMs`. Only old
   * ones, since on a shared volume another replica may be writing the fresh ones.
   */
  async clearIncoming(olderThanMs = 24 * 3600_000): Promise<number> {
    const incoming = join(this.root, INCOMING);
    const names = await readdir(incoming).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const info = await stat(join(incoming, name)).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > olderThanMs) {
        await rm(join(incoming, name), { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  private pathOf(key: string): string {
    return join(this.root, ...key.split('/'));
  }
}

/** A rename is durable once its directory is flushed. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
