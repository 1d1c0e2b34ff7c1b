import { startS3Server, type S3Server, type Stack } from '@cinetrace/testing';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The media storage drivers (MEDIA_STORAGE) every media suite runs on. */
export const MEDIA_STORAGES = ['fs', 's3'] as const;
export type MediaStorageKind = (typeof MEDIA_STORAGES)[number];

export interface MediaStorageUnderTest {
  readonly kind: MediaStorageKind;
  /** The MEDIA_STORAGE and S3_* variables of a stack's apps (call once the hooks have run). */
  env(): Record<string, string>;
  /**
   * What the storage holds for `projectId` (its blobs), and what any put left half done
   * (temporary files, temporary objects, open multipart uploads), whichever project's.
   */
  holdings(stack: Stack, projectId: string): Promise<string[]>;
}

/** Names in `dir`, or none when it does not exist. */
const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/**
 * A media storage for the enclosing describe: `fs` is the stack's `<DATA_DIR>/media` (in the
 * distributed mode every app is given the same DATA_DIR: the shared volume of a cluster);
 * `s3` is an S3Mock of the describe's own (scripts/s3mock), started before its stacks.
 */
export function useMediaStorage(kind: MediaStorageKind): MediaStorageUnderTest {
  let server: S3Server | undefined;
  if (kind === 's3') {
    beforeAll(async () => {
      server = await startS3Server('cinetrace-media');
    }, 180_000);
    afterAll(() => server?.remove());
  }
  const s3 = () => {
    if (!server) throw new Error('S3Mock did not start (see beforeAll)');
    return server;
  };
  return {
    kind,
    env: () => (kind === 's3' ? { MEDIA_STORAGE: 's3', ...s3().env } : { MEDIA_STORAGE: 'fs' }),
    async holdings(stack, projectId) {
      if (kind === 's3') return [...(await s3().keys(`${projectId}/`)), ...(await s3().keys('.incoming/'))];
      const root = join(stack.dataDir, 'media');
      return [...entries(join(root, projectId)).map((name) => `${projectId}/${name}`), ...entries(join(root, '.incoming')).map((name) => `.incoming/${name}`)];
    },
  };
}
