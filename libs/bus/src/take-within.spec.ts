import { takeWithin } from './take-within';

describe('takeWithin', () => {
  it('takes the oldest items while they fit, leaving the rest queued in order', () => {
    const queue = [3, 4, 2, 5];
    expect(takeWithin(queue, 9, (n) => n)).toEqual([3, 4, 2]);
    expect(queue).toEqual([5]);
  });

  it('stops at the first item that does not fit, even if a later one would', () => {
    const queue = [3, 7, 1];
    expect(takeWithin(queue, 5, (n) => n)).toEqual([3]);
    expect(queue).toEqual([7, 1]);
  });

  it('always takes the first item, however large, so nothing waits forever', () => {
    const queue = [50, 1];
    expect(takeWithin(queue, 10, (n) => n)).toEqual([50]);
    expect(queue).toEqual([1]);
    expect(takeWithin([], 10, (n: number) => n)).toEqual([]);
  });
});
