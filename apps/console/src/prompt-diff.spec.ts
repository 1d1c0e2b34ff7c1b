import { sideBySide } from './prompt-diff';

const kinds = (before: string, after: string) => sideBySide(before, after).rows.map((r) => [r.kind, r.left?.text ?? null, r.right?.text ?? null]);

describe('sideBySide', () => {
  it('shows identical texts as unchanged lines, numbered on both sides', () => {
    const diff = sideBySide('a\nb', 'a\nb');
    expect(diff.rows).toEqual([
      { kind: 'same', left: { number: 1, text: 'a' }, right: { number: 1, text: 'a' } },
      { kind: 'same', left: { number: 2, text: 'b' }, right: { number: 2, text: 'b' } },
    ]);
    expect([diff.added, diff.removed]).toEqual([0, 0]);
  });

  it('puts a changed line beside its new text', () => {
    expect(kinds('A slow dolly shot\nof {{subject}}\nat dusk', 'A slow dolly shot\nof {{subject}}\nat dawn')).toEqual([
      ['same', 'A slow dolly shot', 'A slow dolly shot'],
      ['same', 'of {{subject}}', 'of {{subject}}'],
      ['changed', 'at dusk', 'at dawn'],
    ]);
  });

  it('shows lines only added or only removed against an empty side, and counts them', () => {
    const diff = sideBySide('one\ntwo\nthree', 'one\nthree\nfour\nfive');
    expect(diff.rows.map((r) => [r.kind, r.left?.number ?? null, r.right?.number ?? null])).toEqual([
      ['same', 1, 1],
      ['removed', 2, null],
      ['same', 3, 2],
      ['added', null, 3],
      ['added', null, 4],
    ]);
    expect([diff.added, diff.removed]).toEqual([2, 1]);
  });

  it('pairs blocks of unequal length: extra old lines as removed, extra new ones as added', () => {
    expect(kinds('x\nold 1\nold 2\ny', 'x\nnew 1\ny')).toEqual([
      ['same', 'x', 'x'],
      ['changed', 'old 1', 'new 1'],
      ['removed', 'old 2', null],
      ['same', 'y', 'y'],
    ]);
  });

  it('does not mark the last line changed when only its newline differs', () => {
    expect(kinds('a\nb', 'a\nb\n')).toEqual([
      ['same', 'a', 'a'],
      ['same', 'b', 'b'],
    ]);
  });

  it('keeps empty lines and handles an empty version', () => {
    expect(kinds('', 'first\n\nthird')).toEqual([
      ['added', null, 'first'],
      ['added', null, ''],
      ['added', null, 'third'],
    ]);
  });
});
