import type { Task } from './api-types';
import { compareRuns, formatDelta } from './run-compare';

function task(itemIndex: number, scores: Record<string, number | null>, runId = 'run_a'): Task {
  return {
    id: `task_${runId}_${itemIndex}`,
    runId,
    itemId: `dsi_${itemIndex}`,
    itemIndex,
    status: 'completed',
    attempts: 1,
    output: null,
    scores: Object.entries(scores).map(([scorer, score]) => ({ scorer, score, passed: score === null ? null : score >= 1, details: null, error: null })),
    error: null,
    usage: null,
    costUsd: null,
    traceId: null,
    startedAt: null,
    finishedAt: null,
    durationMs: null,
  };
}

describe('compareRuns', () => {
  it('pairs tasks by dataset item and gives each scorer its delta', () => {
    const { items, scorers } = compareRuns([task(0, { exact: 1, sim: 0.5 })], [task(0, { exact: 0, sim: 0.75 }, 'run_b')]);
    expect(scorers).toEqual(['exact', 'sim']);
    expect(items).toHaveLength(1);
    expect(items[0].scores).toEqual([
      { scorer: 'exact', base: 1, other: 0, delta: -1 },
      { scorer: 'sim', base: 0.5, other: 0.75, delta: 0.25 },
    ]);
    // One scorer got worse: that is a regression, even if another got better.
    expect(items[0].change).toBe('regression');
  });

  it('puts regressions first (worst first), then missing items, improvements (best first), unchanged last', () => {
    const base = [task(0, { s: 1 }), task(1, { s: 1 }), task(2, { s: 0 }), task(3, { s: 0.5 }), task(4, { s: 1 }), task(5, { s: 0 })];
    const other = [task(0, { s: 1 }, 'b'), task(1, { s: 0.75 }, 'b'), task(2, { s: 0.25 }, 'b'), task(3, { s: 0 }, 'b'), task(5, { s: 1 }, 'b')];
    const { items, counts } = compareRuns(base, other);
    expect(items.map((i) => [i.itemIndex, i.change])).toEqual([
      [3, 'regression'],
      [1, 'regression'],
      [4, 'missing'],
      [5, 'improvement'],
      [2, 'improvement'],
      [0, 'unchanged'],
    ]);
    expect(counts).toEqual({ regression: 2, missing: 1, improvement: 2, unchanged: 1 });
  });

  it('counts a score that disappeared (the scorer failed this time) as a regression', () => {
    const { items } = compareRuns([task(0, { s: 1 }), task(1, { s: 0 })], [task(0, { s: null }, 'b'), task(1, { s: 0 }, 'b')]);
    expect(items.map((i) => [i.itemIndex, i.change])).toEqual([
      [0, 'regression'],
      [1, 'unchanged'],
    ]);
    expect(items[0].scores[0].delta).toBeNull();
  });

  it('ignores float noise', () => {
    const { items } = compareRuns([task(0, { s: 0.1 + 0.2 })], [task(0, { s: 0.3 }, 'b')]);
    expect(items[0].change).toBe('unchanged');
  });

  it('compares runs with no tasks', () => {
    expect(compareRuns([], [])).toEqual({ scorers: [], items: [], counts: { regression: 0, improvement: 0, unchanged: 0, missing: 0 } });
  });
});

describe('formatDelta', () => {
  it('signs deltas with + and a true minus, trims zeros', () => {
    expect([formatDelta(0.25), formatDelta(-1), formatDelta(0), formatDelta(null), formatDelta(1 / 3)]).toEqual(['+0.25', '−1', '0', '—', '+0.333']);
  });
});
