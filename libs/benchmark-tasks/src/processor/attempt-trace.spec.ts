import { expect } from '@jest/globals';
import { taskScoresOf } from './attempt-trace';

describe('taskScoresOf', () => {
  it("gives a task's scorer results as scores of its trace: a score as numeric, a bare pass as boolean, a failed scorer none", () => {
    const scores = taskScoresOf(
      'task_1',
      [
        { scorer: 'exact_match', score: 0.5, passed: false, details: null, error: null },
        { scorer: 'contains', score: null, passed: true, details: null, error: null },
        { scorer: 'http', score: null, passed: null, details: null, error: 'timed out' },
      ],
      1000,
    );
    const common = { spanId: null, source: 'benchmark', comment: null, evaluatorId: null, createdAt: 1000 };
    expect(scores).toEqual([
      { ...common, id: 'task_1.score.0', name: 'exact_match', value: 0.5, stringValue: null, dataType: 'numeric' },
      { ...common, id: 'task_1.score.1', name: 'contains', value: 1, stringValue: 'true', dataType: 'boolean' },
    ]);
  });
});
