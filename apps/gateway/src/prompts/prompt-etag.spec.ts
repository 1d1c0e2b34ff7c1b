import { ifNoneMatchHolds, parseIfMatch, promptETag } from './prompt-etag';

const ID = 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d';

describe('promptETag', () => {
  it('names the prompt and its version', () => {
    expect(promptETag(ID, 3)).toBe(`"${ID}:3"`);
  });
});

describe('parseIfMatch', () => {
  it('accepts any version when absent or *', () => {
    expect(parseIfMatch(undefined, ID)).toBeUndefined();
    expect(parseIfMatch(' * ', ID)).toBeUndefined();
  });

  it("reads this prompt's strong, weak and listed tags, and bare versions", () => {
    expect(parseIfMatch(`"${ID}:3"`, ID)).toEqual([3]);
    expect(parseIfMatch(`W/"${ID}:3", "${ID}:4"`, ID)).toEqual([3, 4]);
    expect(parseIfMatch('"3"', ID)).toEqual([3]);
  });

  it("gives an empty list for tags that name no version of this prompt (another prompt's too), so the write is refused", () => {
    expect(parseIfMatch('"abc"', ID)).toEqual([]);
    expect(parseIfMatch('"prm_other:3"', ID)).toEqual([]);
  });
});

describe('ifNoneMatchHolds', () => {
  const current = promptETag(ID, 3);
  it.each([
    [`"${ID}:3"`, true],
    [`W/"${ID}:3"`, true],
    [`"${ID}:1", "${ID}:3"`, true],
    ['*', true],
    [`"${ID}:4"`, false],
    ['"prm_other:3"', false],
    // A bare version names no prompt: it may be another prompt's that held the identifier.
    ['"3"', false],
    ['', false],
  ])('%s against version 3: %s', (header, holds) => {
    expect(ifNoneMatchHolds(header, current)).toBe(holds);
  });

  it('does not hold without the header', () => {
    expect(ifNoneMatchHolds(undefined, current)).toBe(false);
  });
});
