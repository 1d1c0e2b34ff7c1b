import { expect } from '@jest/globals';
import { aggregateScores } from './aggregate-scores';
import { ScoreResult } from './scorer.types';

const ok = (scorer: string, score: number, passed: boolean): ScoreResult => ({ scorer, score, passed, details: null, error: null });
const failed = (scorer: string): ScoreResult => ({ scorer, score: null, passed: null, details: null, error: 'the output has no field' });

describe('aggregateScores', () => {
  it('gives each scorer its mean and pass rate over the tasks, leaving errors out', () => {
    const summary = aggregateScores([
      [ok('exact', 1, true), ok('similar', 0.9, true)],
      [ok('exact', 0, false), ok('similar', 0.4, false)],
      [failed('exact'), ok('similar', 0.5, true)],
    ]);
    expect(summary).toEqual({
      exact: { mean: 0.5, passRate: 0.5, errors: 1 },
      similar: { mean: expect.closeTo(0.6, 10), passRate: 2 / 3, errors: 0 },
    });
    expect(Object.keys(summary)).toEqual(['exact', 'similar']);
  });

  it('gives null figures to a scorer that only failed, and nothing for no tasks', () => {
    expect(aggregateScores([[failed('judge')], [failed('judge')]])).toEqual({ judge: { mean: null, passRate: null, errors: 2 } });
    expect(aggregateScores([])).toEqual({});
    expect(aggregateScores([[], []])).toEqual({});
  });
});
