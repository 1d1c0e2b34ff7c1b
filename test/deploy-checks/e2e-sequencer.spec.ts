import { expect } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface FakeTest {
  path: string;
  context: { config: { rootDir: string; displayName: { name: string } } };
}
// The e2e sequencer as jest loads it (CommonJS, no types).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dealShards } = require('../jest/e2e-sequencer.js') as {
  dealShards(tests: FakeTest[], shardCount: number, recorded: Record<string, number>, relative: (test: FakeTest) => string): FakeTest[][];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const durations = require('../jest/e2e-durations.json') as Record<string, number>;

const repoRoot = join(__dirname, '..', '..');
const e2eTest = (rootDir: string, path: string): FakeTest => ({ path, context: { config: { rootDir, displayName: { name: 'e2e' } } } });

/** e2e files written to a scratch folder, each asking for its stack (a useStack argument; null: a stack of its own). */
function scratchFiles(stacks: Array<[name: string, stack: string | null]>) {
  const root = mkdtempSync(join(tmpdir(), 'e2e-shards-'));
  const tests = stacks.map(([name, stack]) => {
    writeFileSync(join(root, name), stack === null ? 'startStack()' : `useStack(${stack})`);
    return e2eTest(root, join(root, name));
  });
  return { tests, relative: (test: FakeTest) => test.path.slice(root.length + 1) };
}

describe('the e2e sequencer, sharding', () => {
  it('deals every recorded e2e file to exactly one shard, and the shards end within a file of each other', () => {
    const tests = Object.keys(durations).map((name) => e2eTest(repoRoot, join(repoRoot, name)));
    const relative = (test: FakeTest) => test.path.slice(repoRoot.length + 1);
    const shards = dealShards(tests, 2, durations, relative);
    expect(shards.flat().map(relative).sort()).toEqual(Object.keys(durations).sort());
    const [a, b] = shards.map((shard) => shard.reduce((sum, test) => sum + durations[relative(test)], 0));
    expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(...Object.values(durations)));
    // Each shard deals alike: asked again, the same split.
    expect(dealShards([...tests].reverse(), 2, durations, relative)).toEqual(shards);
  });

  it("keeps a small stack's files in one shard, and deals a large stack's one by one", () => {
    const { tests, relative } = scratchFiles([
      ['a', '{ env: { X: "1" } }'],
      ['b', '{ env: { X: "1" } }'],
      ['c', ''],
      ['d', ''],
      ['e', ''],
      ['f', null],
    ]);
    const shards = dealShards(tests, 2, { a: 5, b: 5, c: 40, d: 40, e: 10, f: 20 }, relative).map((shard) => shard.map(relative));
    expect(shards.find((shard) => shard.includes('a'))).toContain('b');
    // The default stack's files weigh more than half a shard's share: dealt one by one, into both shards.
    expect(shards.map((shard) => shard.filter((name) => 'cde'.includes(name)).length)).toEqual([1, 2]);
    expect(shards.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('counts a file with no recorded time as the median file', () => {
    const { tests, relative } = scratchFiles([
      ['a', null],
      ['b', null],
      ['c', null],
      ['new', null],
    ]);
    // 30 + new (median: 20) against 20 + 10.
    const shards = dealShards(tests, 2, { a: 30, b: 20, c: 10 }, relative).map((shard) => shard.map(relative).sort());
    expect(shards).toEqual([
      ['a', 'c'],
      ['b', 'new'],
    ]);
  });
});
