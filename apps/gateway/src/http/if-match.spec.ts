import { ifNoneMatchHolds, parseIfMatch } from './if-match';

describe('parseIfMatch', () => {
  it('accepts any version when absent or *', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch(' * ')).toBeUndefined();
  });

  it('reads strong, weak and listed entity tags', () => {
    expect(parseIfMatch('"3"')).toEqual([3]);
    expect(parseIfMatch('W/"3", "4"')).toEqual([3, 4]);
  });

  it('gives an empty list for tags that can name no version, so the write is refused', () => {
    expect(parseIfMatch('"abc"')).toEqual([]);
  });
});

describe('ifNoneMatchHolds', () => {
  it.each([
    ['"3"', true],
    ['W/"3"', true],
    ['"1", "3"', true],
    ['*', true],
    ['"4"', false],
    ['3', false],
    ['', false],
  ])('%s against version 3: %s', (header, holds) => {
    expect(ifNoneMatchHolds(header, 3)).toBe(holds);
  });

  it('does not hold without the header', () => {
    expect(ifNoneMatchHolds(undefined, 3)).toBe(false);
  });
});
