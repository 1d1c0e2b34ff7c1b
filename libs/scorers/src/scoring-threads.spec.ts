import { threadScripts } from './scoring-thread.fixtures';
import { ScoringThreads } from './scoring-threads';
import { ScoreInput, ScorerSpec } from './scorer.types';
import { validateScorers } from './validate-scorers';

const scripts = threadScripts('scoring-threads-');
const { tsEntry, spinning, broken } = scripts;
afterAll(() => scripts.remove());

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
