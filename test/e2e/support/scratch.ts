import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's root. */
export const REPO = join(__dirname, '..', '..', '..');

/** A tool the repository installs (node_modules/.bin), run as a user would run it. */
export const repoBin = (name: string) => join(REPO, 'node_modules', '.bin', name);

/** A temporary folder of the suite's own, made before its tests and removed after them. */
export function useScratchDir(prefix: string): { readonly path: string } {
  const scratch = { path: '' };
  beforeAll(() => {
    scratch.path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(scratch.path, { recursive: true, force: true }));
  return scratch;
}
