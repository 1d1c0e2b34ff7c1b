import { spawnSync } from 'node:child_process';
import { ROOT } from './repo';

export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The executable is not installed (spawn failed with ENOENT). */
  missing: boolean;
}

/** Runs a command in the repository root, with a timeout; never throws. */
export function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): ToolRun {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 32 * 1024 * 1024,
  });
  const missing = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? String(result.error ?? ''), missing };
}

/** `docker compose` is usable when `docker compose version` exits 0 (the CLI alone, without the plugin, exits non-zero). */
export const composePluginPresent = (): boolean => run('docker', ['compose', 'version'], {}, 20_000).status === 0;

/** A way to render a kustomization: `kubectl kustomize DIR`, or the standalone `kustomize build DIR`. */
let kustomize: { command: string; args: (dir: string) => string[] } | undefined | null = null;

export function kustomizeCommand(): { command: string; args: (dir: string) => string[] } | undefined {
  if (kustomize === null) kustomize = findKustomize();
  return kustomize;
}

function findKustomize(): { command: string; args: (dir: string) => string[] } | undefined {
  if (run('kubectl', ['version', '--client'], {}, 20_000).status === 0) return { command: 'kubectl', args: (dir) => ['kustomize', dir] };
  if (run('kustomize', ['version'], {}, 20_000).status === 0) return { command: 'kustomize', args: (dir) => ['build', dir] };
  return undefined;
}
