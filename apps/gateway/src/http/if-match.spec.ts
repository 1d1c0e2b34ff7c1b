import { parseIfMatch } from './if-match';

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
