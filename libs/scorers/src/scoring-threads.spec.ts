import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScoringThreads } from './scoring-threads';
import { ScoreInput, ScorerSpec } from './scorer.types';
import { validateScorers } from './validate-scorers';

// The threads run the TypeScript entry point through swc, as jest does for this file.
const dir = mkdtempSync(join(tmpdir(), 'scoring-threads-'));
const tsEntry = join(dir, 'ts-entry.js');
writeFileSync(
  tsEntry,
  `const { readFileSync } = require('node:fs');
const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } });
  module._compile(code, filename);
};
require(${JSON.stringify(join(__dirname, 'scoring-thread.ts'))});`,
);
/** A thread that never answers: its JavaScript spins outside any watchdog. */
const spinning = join(dir, 'spinning.js');
writeFileSync(spinning, `const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => { for (;;); }); parentPort.postMessage('ready');`);
/** A thread whose script cannot load. */
const broken = join(dir, 'broken.js');
writeFileSync(broken, `throw new Error('cannot load');`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spec(raw: { type: string; config?: Record<string, unknown> }): ScorerSpec {
  const result = validateScorers([raw]);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scorers[0];
}
const item = (output: unknown, expected: unknown = null): ScoreInput => ({ input: null, expected, output, metadata: null });

describe('ScoringThreads', () => {
  it('scores on its threads, errors of the scorer carried back as they were', async () => {
    const threads = new ScoringThreads({ size: 2, threadFile: tsEntry });
    try {
      const evil = `${'a'.repeat(40)}!`;
      await expect(threads.score(spec({ type: 'regex', config: { pattern: '^(a+)+$' } }), item(evil))).resolves.toEqual({ score: 0, details: null });
      await expect(threads.score(spec({ type: 'string_similarity' }), item('kitten', 'sitting'))).resolves.toEqual({ score: 1 - 3 / 7, details: { distance: 3 } });
      await expect(threads.score(spec({ type: 'json_schema', config: { schema: { type: 'string', pattern: '^a+$' } } }), item(evil))).resolves.toMatchObject({ score: 0 });
      await expect(threads.score(spec({ type: 'regex', config: { pattern: 'x', field: 'caption' } }), item({}))).rejects.toThrow("the output has no field 'caption'");
    } finally {
      await threads.close();
    }
  });

  it('terminates a thread that overruns its budget, fails that evaluation, and goes on with a new thread', async () => {
    const threads = new ScoringThreads({ size: 1, timeLimitMs: 100, threadFile: spinning });
    try {
      const started = Date.now();
      const first = threads.score(spec({ type: 'regex', config: { pattern: 'a' } }), item('a'));
      const second = threads.score(spec({ type: 'regex', config: { pattern: 'a' } }), item('a'));
      await expect(first).rejects.toThrow('took longer than 100 ms and was stopped');
      await expect(second).rejects.toThrow('took longer than 100 ms and was stopped');
      // Each stopped in about its budget: the second waited for the first, on a thread of its own.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await threads.close();
    }
  });

  it('fails the evaluations waiting for a thread that cannot start', async () => {
    const threads = new ScoringThreads({ size: 2, threadFile: broken });
    try {
      const both = [1, 2].map(() => threads.score(spec({ type: 'regex', config: { pattern: 'a' } }), item('a')));
      for (const scored of both) await expect(scored).rejects.toThrow('the scoring thread failed: cannot load');
    } finally {
      await threads.close();
    }
  });

  it('fails evaluations of a value that cannot be handed to a thread, and after close', async () => {
    const threads = new ScoringThreads({ size: 1, threadFile: tsEntry });
    await expect(
      threads.score(
        spec({ type: 'regex', config: { pattern: 'a' } }),
        item(() => 'a'),
      ),
    ).rejects.toThrow(/could not be handed to the scorer/);
    await threads.close();
    await expect(threads.score(spec({ type: 'regex', config: { pattern: 'a' } }), item('a'))).rejects.toThrow('shut down');
  });
});
