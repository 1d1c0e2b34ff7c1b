import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsBlobStore } from './fs-blob-store';

describe('FsBlobStore.clearIncoming', () => {
  it('removes only what interrupted puts left long ago (another replica may be writing the fresh ones)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'blobs-'));
    try {
      mkdirSync(join(root, '.incoming'));
      writeFileSync(join(root, '.incoming', 'old'), 'x');
      writeFileSync(join(root, '.incoming', 'fresh'), 'x');
      const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
      utimesSync(join(root, '.incoming', 'old'), twoDaysAgo, twoDaysAgo);
      expect(await new FsBlobStore(root).clearIncoming()).toBe(1);
      expect(readdirSync(join(root, '.incoming'))).toEqual(['fresh']);
      expect(await new FsBlobStore(join(root, 'never-written')).clearIncoming()).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
