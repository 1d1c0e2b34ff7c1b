import { expect } from '@jest/globals';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Loads the decoding thread's real entry (through swc, as jest runs this spec) in a thread, and answers that thread's nice value. */
function decodingThreadNiceness(): Promise<number> {
  const code = `const { readFileSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } }, module: { type: 'commonjs' } });
  module._compile(code, filename);
};
require(${JSON.stringify(join(__dirname, 'otlp-decode.worker.ts'))});
parentPort.postMessage(require('node:os').getPriority());`;
  const thread = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    thread.once('message', (niceness: number) => void thread.terminate().then(() => resolve(niceness)));
    thread.once('error', reject);
  });
}

describe('the OTLP decoding thread', () => {
  it('decodes at a lower CPU priority than the event loop, which keeps its own', async () => {
    const loop = getPriority();
    expect(await decodingThreadNiceness()).toBe(Math.min(19, loop + 10));
    expect(getPriority()).toBe(loop);
  }, 60_000);
});
