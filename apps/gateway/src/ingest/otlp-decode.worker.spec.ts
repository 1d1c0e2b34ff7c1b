import { expect } from '@jest/globals';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Loads the decoding thread's real entry (through swc, as jest runs this spec) in a thread, runs `snippet` there (`entry` is the module), and answers what it posts. */
function inDecodingThread<T>(snippet: string): Promise<T> {
  const code = `const { readFileSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } }, module: { type: 'commonjs' } });
  module._compile(code, filename);
};
const entry = require(${JSON.stringify(join(__dirname, 'otlp-decode.worker.ts'))});
${snippet}`;
  const thread = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    thread.once('message', (answer: T) => void thread.terminate().then(() => resolve(answer)));
    thread.once('error', reject);
  });
}

describe('the OTLP decoding thread', () => {
  it('decodes at a lower CPU priority than the event loop, which keeps its own', async () => {
    const loop = getPriority();
    expect(await inDecodingThread<number>(`parentPort.postMessage(require('node:os').getPriority());`)).toBe(Math.min(19, loop + 10));
    expect(getPriority()).toBe(loop);
  }, 60_000);

  it("hands the export's bytes back with its answer, moved rather than copied (the gateway may publish them)", async () => {
    const answer = await inDecodingThread<{ movable: boolean; transfers: number; ok: boolean; bytes: number[] }>(`
const { Piscina } = require('piscina');
const bytes = new Uint8Array([0x0a, 0x00]); // an export with one empty ResourceSpans
entry.default({ encoding: 'protobuf', bytes, maxJsonDepth: 64 }).then((result) => {
  const value = result[Piscina.valueSymbol];
  parentPort.postMessage({ movable: Piscina.transferableSymbol in result, transfers: result[Piscina.transferableSymbol].length, ok: value.decoded.ok, bytes: [...value.bytes] });
});`);
    expect(answer).toEqual({ movable: true, transfers: 1, ok: true, bytes: [0x0a, 0x00] });
  }, 60_000);

  it("hands a body that is a view at the start of larger memory (the gateway's body pool) back with all of its memory", async () => {
    const answer = await inDecodingThread<{ bytes: number[]; memory: number }>(`
const { Piscina } = require('piscina');
const bytes = new Uint8Array(new ArrayBuffer(1024), 0, 2);
bytes.set([0x0a, 0x00]);
entry.default({ encoding: 'protobuf', bytes, maxJsonDepth: 64 }).then((result) => {
  const value = result[Piscina.valueSymbol];
  parentPort.postMessage({ bytes: [...value.bytes], memory: value.bytes.buffer.byteLength });
});`);
    expect(answer).toEqual({ bytes: [0x0a, 0x00], memory: 1024 });
  }, 60_000);

  it('decompresses a gzipped export on the thread, within the body limit, and answers 413 past it', async () => {
    const answer = await inDecodingThread<Array<{ ok: boolean; code?: string; bytes: number }>>(`
const { Piscina } = require('piscina');
const { gzipSync } = require('node:zlib');
const run = (bytes, limit) => entry.default({ encoding: 'protobuf', bytes: gzipSync(bytes), maxJsonDepth: 64, gunzipWithin: limit }).then((result) => {
  const { decoded, bytes } = result[Piscina.valueSymbol];
  return { ok: decoded.ok, code: decoded.code, bytes: bytes.length };
});
Promise.all([run(Buffer.from([0x0a, 0x00]), 1024), run(Buffer.alloc(4096), 1024)]).then((answers) => parentPort.postMessage(answers));`);
    expect(answer).toEqual([
      { ok: true, bytes: 2 },
      { ok: false, code: 'payload_too_large', bytes: expect.any(Number) },
    ]);
  }, 60_000);
});
