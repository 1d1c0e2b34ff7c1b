import { countsInWords, isActive, readAgain, runProgress } from './run-progress';

const counts = (c: Partial<Record<'total' | 'pending' | 'running' | 'completed' | 'failed' | 'cancelled', number>>) => ({
  total: 0,
  pending: 0,
  running: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  ...c,
});

describe('runProgress', () => {
  it('starts a queued run at 0 % with everything pending', () => {
    expect(runProgress(counts({ total: 4, pending: 4 }))).toEqual({ done: 0, total: 4, percent: 0, segments: [{ status: 'pending', count: 4, percent: 100 }] });
  });

  it('counts ended tasks as done and orders segments as tasks move: ended, running, pending', () => {
    const progress = runProgress(counts({ total: 10, pending: 3, running: 2, completed: 4, failed: 1 }));
    expect(progress.done).toBe(5);
    expect(progress.percent).toBe(50);
    expect(progress.segments.map((s) => [s.status, s.count, s.percent])).toEqual([
      ['completed', 4, 40],
      ['failed', 1, 10],
      ['running', 2, 20],
      ['pending', 3, 30],
    ]);
  });

  it('reaches 100 % when every task has ended, cancelled ones included', () => {
    const progress = runProgress(counts({ total: 3, completed: 2, cancelled: 1 }));
    expect(progress.percent).toBe(100);
    expect(progress.segments.reduce((n, s) => n + s.percent, 0)).toBeCloseTo(100);
  });

  it('never draws more than 100 % when the counts outgrow the total', () => {
    const progress = runProgress(counts({ total: 2, completed: 3, pending: 1 }));
    expect(progress.total).toBe(4);
    expect(progress.segments.reduce((n, s) => n + s.percent, 0)).toBeCloseTo(100);
  });

  it('shows a run without tasks as complete, with no segment', () => {
    expect(runProgress(counts({}))).toEqual({ done: 0, total: 0, percent: 100, segments: [] });
  });
});

describe('isActive', () => {
  it('is true for queued and running runs only', () => {
    expect(['idle', 'queued', 'running', 'completed', 'failed', 'cancelled'].filter((s) => isActive(s as never))).toEqual(['queued', 'running']);
  });
});

describe('countsInWords', () => {
  it('names the non-zero counts in the bar order', () => {
    expect(countsInWords(counts({ total: 5, completed: 3, failed: 1, pending: 1 }))).toBe('3 completed · 1 failed · 1 pending');
    expect(countsInWords(counts({}))).toBe('no task');
  });
});

describe('readAgain', () => {
  it('reads again after every read that finds the run moving', () => {
    expect(readAgain(undefined, 'queued')).toBe(true);
    expect(readAgain('queued', 'running')).toBe(true);
    expect(readAgain('running', 'running')).toBe(true);
  });

  it('reads once more after the read that finds it ended, whatever way it ended: what was read alongside may predate the end', () => {
    for (const ended of ['completed', 'failed', 'cancelled'] as const) {
      expect(readAgain('running', ended)).toBe(true);
      expect(readAgain('queued', ended)).toBe(true);
    }
  });

  it('leaves an ended run alone: everything read with it was read after it ended', () => {
    expect(readAgain('completed', 'completed')).toBe(false);
    expect(readAgain(undefined, 'failed')).toBe(false);
  });
});
