import { storyboardTimes } from './storyboard-times';

describe('storyboardTimes', () => {
  it('keeps the first frame and every cut, and fills a gap past 10 s', () => {
    // The red, blue, testsrc clip: cuts at 3 s and 6 s, then 14 s without one.
    expect(storyboardTimes([3000, 6000], 20_000)).toEqual([0, 3000, 6000, 16_000]);
  });

  it('gives a video without cuts one keyframe per 10 s, none at or past its end', () => {
    expect(storyboardTimes([], 20_000)).toEqual([0, 10_000]);
    expect(storyboardTimes([], 35_500)).toEqual([0, 10_000, 20_000, 30_000]);
    expect(storyboardTimes([], 2000)).toEqual([0]);
  });

  it('leaves out cuts within a second of the keyframe before (a flicker), and any at or past the end', () => {
    expect(storyboardTimes([41, 83, 125, 2000, 2400, 5000, 5000], 5000)).toEqual([0, 2000]);
  });

  it('leaves no gap longer than maxGapMs anywhere', () => {
    const duration = 95_000;
    const times = storyboardTimes([12_000, 12_500, 40_000, 41_500, 80_000], duration);
    const gaps = [...times.slice(1), duration].map((t, i) => t - times[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times).toEqual(expect.arrayContaining([0, 12_000, 40_000, 41_500, 80_000]));
  });
});
