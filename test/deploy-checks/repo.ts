import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root: this file lives in test/deploy-checks. */
export const ROOT = path.resolve(__dirname, '..', '..');

export const rootPath = (...parts: string[]): string => path.join(ROOT, ...parts);

export const readText = (relative: string): string => fs.readFileSync(rootPath(relative), 'utf8');

export const exists = (relative: string): boolean => fs.existsSync(rootPath(relative));

/** The directories directly under `apps/` or `libs/` (workspace packages), sorted. */
export function packageDirs(kind: 'apps' | 'libs'): string[] {
  return fs
    .readdirSync(rootPath(kind), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The single-process mode composes every other app in one process (in-process bus, SQLite):
 * it is what `npm start` runs, not a unit of the distributed deployment, so neither compose
 * nor the manifests run it. Every other directory of apps/ with a `src/main.ts` is deployed.
 */
export const NOT_DEPLOYED = new Set(['all-in-one']);

/** The apps that run as their own process in the distributed mode (compose services, Deployments). */
export function deployableApps(): string[] {
  return packageDirs('apps').filter((app) => !NOT_DEPLOYED.has(app) && exists(`apps/${app}/src/main.ts`));
}

/** Every file under `relative` (recursively) whose name matches `pattern`, as repo-relative paths. */
export function filesUnder(relative: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(rootPath(dir), { withFileTypes: true })) {
      const child = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (pattern.test(entry.name)) found.push(child);
    }
  };
  if (exists(relative)) walk(relative);
  return found.sort();
}
