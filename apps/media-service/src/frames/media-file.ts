import { openBlobFile, type BlobStore } from '@cinetrace/blob-store';

/**
 * Runs `use` with a file holding the blob's bytes (openBlobFile): ffmpeg seeks in a file (a
 * frame reads only the packets it needs; an MP4 whose index comes last cannot be read from a
 * pipe at all). A copy from a remote storage is streamed within `copyTimeoutMs`.
 */
export async function withMediaFile<T>(blobs: BlobStore, key: string, copyTimeoutMs: number, use: (path: string) => Promise<T>): Promise<T> {
  const file = await openBlobFile(blobs, key, AbortSignal.timeout(copyTimeoutMs));
  try {
    return await use(file.path);
  } finally {
    await file.release();
  }
}
