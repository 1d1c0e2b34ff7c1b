import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Thread scripts for ScoringThreads' specs, in a temporary folder the spec removes with `remove()`. */
export interface ThreadScripts {
  /** The real entry point (scoring-thread.ts), run through swc as jest runs the spec. */
  tsEntry: string;
  /** A thread that never answers: its JavaScript spins outside any watchdog. */
  spinning: string;
  /** A thread whose script cannot load. */
  broken: string;
  remove(): void;
}

export function threadScripts(prefix: string): ThreadScripts {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const write = (name: string, code: string) => (writeFileSync(join(dir, name), code), join(dir, name));
  return {
    tsEntry: write(
      'ts-entry.js',
      `const { readFileSync } = require('node:fs');
const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } });
  module._compile(code, filename);
};
require(${JSON.stringify(join(__dirname, 'scoring-thread.ts'))});`,
    ),
    spinning: write('spinning.js', `const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => { for (;;); }); parentPort.postMessage('ready');`),
    broken: write('broken.js', `throw new Error('cannot load');`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
