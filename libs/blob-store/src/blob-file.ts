import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob-store';

/** A file to hand a tool (ffmpeg seeks in files), and what removes it once the tool is done. */
export interface BlobFile {
  path: string;
  release(): Promise<void>;
}

/** A path no one else uses, in a private temporary directory that `release` removes. */
export async function temporaryFile(): Promise<BlobFile> {
  const dir = await mkdtemp(join(tmpdir(), 'cinetrace-media-'));
  return { path: join(dir, 'media'), release: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A file holding the blob's bytes: the filesystem driver's own file (read in place: a seek
 * reads only what it needs, and nothing is copied), else a temporary copy streamed within
 * `signal`, removed by `release` (as it is when the copy fails).
 */
export async function openBlobFile(blobs: BlobStore, key: string, signal: AbortSignal): Promise<BlobFile> {
  if (blobs instanceof FsBlobStore) return { path: blobs.filePath(key), release: async () => undefined };
  const file = await temporaryFile();
  try {
    const read = await blobs.get(key);
    await pipeline(read.body, createWriteStream(file.path, { flags: 'wx', mode: 0o600 }), { signal });
    return file;
  } catch (err) {
    await file.release();
    throw err;
  }
}
