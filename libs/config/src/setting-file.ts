import { readFileSync } from 'node:fs';
import { EnvironmentError } from './environment-error';

/** Reads a file an environment variable names; `read` is replaceable for tests. */
export type ReadFile = (path: string) => Buffer;

export const readFromDisk: ReadFile = (path) => readFileSync(path);

/**
 * The content of the file `variable` names. A file that cannot be read stops the boot with
 * the variable and the path (a path is no secret; the content may be), never the content.
 */
export function readSettingFile(variable: string, path: string, read: ReadFile = readFromDisk): Buffer {
  try {
    return read(path);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new EnvironmentError([`${variable}: cannot read ${path} (${reason})`]);
  }
}
