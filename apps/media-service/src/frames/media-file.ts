import { FsBlobStore, type BlobStore } from '@cinetrace/blob-store';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Runs `use` with a file holding the blob's bytes: ffmpeg seeks in a file (a frame reads only
 * the packets it needs; an MP4 whose index comes last cannot be read from a pipe at all). The
 * filesystem driver's own file; for another driver a temporary copy, streamed within
 * `copyTimeoutMs` and removed afterwards.
 */
export async function withMediaFile<T>(blobs: BlobStore, key: string, copyTimeoutMs: number, use: (path: string) => Promise<T>): Promise<T> {
  if (blobs instanceof FsBlobStore) return use(blobs.filePath(key));
  const dir = await mkdtemp(join(tmpdir(), 'cinetrace-media-'));
  try {
    const path = join(dir, 'media');
    const read = await blobs.get(key);
    await pipeline(read.body, createWriteStream(path, { mode: 0o600 }), { signal: AbortSignal.timeout(copyTimeoutMs) });
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
