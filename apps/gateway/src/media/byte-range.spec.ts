import { requestedRange } from './byte-range';

describe('requestedRange', () => {
  it.each([
    ['bytes=0-1', { start: 0, end: 1 }],
    ['bytes=100-', { start: 100 }],
    ['bytes=-500', { suffix: 500 }],
    [' bytes=5-5 ', { start: 5, end: 5 }],
    ['bytes=-0', { suffix: 0 }],
  ])('reads %j', (header, range) => {
    expect(requestedRange(header)).toEqual(range);
  });

  it.each([undefined, '', 'bytes=', 'bytes=-', 'bytes=5-2', 'bytes=0-1,4-5', 'items=0-1', 'bytes=a-b', 'bytes=1234567890123456-'])('ignores %j (the whole content)', (header) => {
    expect(requestedRange(header)).toBeUndefined();
  });
});
