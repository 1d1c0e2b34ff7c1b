import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** The monorepo root (the package.json with workspaces), found from this file's place. */
export function repoRoot(): string {
  if (cached) return cached;
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { workspaces?: unknown }).workspaces) {
      return (cached = dir);
    }
  }
  throw new Error(`No monorepo root above ${__dirname}`);
}
