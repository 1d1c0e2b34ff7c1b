import type { MediaView } from '@cinetrace/contracts';
import { nextReadInMs, untilSettled } from './media-wait';

const media = (status: MediaView['status']) => ({ id: 'med_1', status }) as MediaView;

describe('GET /media/{id} with Prefer: wait', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('reads again while the media is pending, and answers it once probed', async () => {
    const answers = [media('pending'), media('pending'), media('ready')];
    const read = jest.fn(async () => answers.shift()!);
    const answered = untilSettled(read, 10_000);
    await jest.advanceTimersByTimeAsync(20);
    expect((await answered).status).toBe('ready');
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('answers the pending media as it is once the wait is over', async () => {
    const read = jest.fn(async () => media('pending'));
    const answered = untilSettled(read, 2000);
    await jest.advanceTimersByTimeAsync(2000);
    expect((await answered).status).toBe('pending');
    // Every 5 ms for the first second, then every 50 ms: ~200 + ~20 reads, not one per millisecond.
    expect(read.mock.calls.length).toBeGreaterThan(150);
    expect(read.mock.calls.length).toBeLessThan(260);
  });

  it('reads once when the media has settled already, or when the wait is 0', async () => {
    const settled = jest.fn(async () => media('failed'));
    expect((await untilSettled(settled, 10_000)).status).toBe('failed');
    expect(settled).toHaveBeenCalledTimes(1);
    const noWait = jest.fn(async () => media('pending'));
    expect((await untilSettled(noWait, 0)).status).toBe('pending');
    expect(noWait).toHaveBeenCalledTimes(1);
  });

  it('reads often at first and less so as the wait goes on', () => {
    expect([0, 999, 1000, 2999, 3000, 9000].map(nextReadInMs)).toEqual([5, 5, 50, 50, 250, 250]);
  });
});
