import { expect } from '@jest/globals';
import { summarizeLabelCounts } from './label-counts';

describe('summarizeLabelCounts', () => {
  it('adds up a label met in several statements and totals every annotation', () => {
    const counts = [
      { label: 'flicker', count: 2 },
      { label: 'blur', count: 1 },
      { label: 'flicker', count: 3 },
    ];
    expect(summarizeLabelCounts(counts)).toEqual({ total: 6, labels: { flicker: 5, blur: 1 }, labelsOmitted: 0 });
  });

  it('keeps the most frequent labels up to the limit (ties by label) and says how many were left out; the total keeps them all', () => {
    const counts = [
      { label: 'c', count: 1 },
      { label: 'b', count: 1 },
      { label: 'a', count: 4 },
      { label: 'd', count: 2 },
    ];
    const summary = summarizeLabelCounts(counts, 3);
    expect(Object.entries(summary.labels)).toEqual([
      ['a', 4],
      ['d', 2],
      ['b', 1],
    ]);
    expect(summary).toMatchObject({ total: 8, labelsOmitted: 1 });
  });

  it('counts a label named like an object property as a label of its own', () => {
    const summary = summarizeLabelCounts([
      { label: '__proto__', count: 2 },
      { label: 'constructor', count: 1 },
    ]);
    expect(Object.getPrototypeOf(summary.labels)).toBe(Object.prototype);
    expect(JSON.stringify(summary.labels)).toBe('{"__proto__":2,"constructor":1}');
  });

  it('answers zeros for no annotations', () => {
    expect(summarizeLabelCounts([])).toEqual({ total: 0, labels: {}, labelsOmitted: 0 });
  });
});
