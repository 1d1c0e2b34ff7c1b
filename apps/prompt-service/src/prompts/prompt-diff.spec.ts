import { applyPatch, createTwoFilesPatch } from 'diff';
import { blockPatch, diffVersions, editLengthFor, MAX_EDIT_LENGTH } from './prompt-diff';

const version = (n: number, fields: Partial<{ name: string; content: string; labels: string[]; metadata: Record<string, unknown> }>) => ({
  version: n,
  name: 'Shot',
  content: 'one\ntwo',
  labels: ['a'],
  metadata: {},
  ...fields,
});

const lines = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i)).join('\n');

describe('diffVersions', () => {
  it('gives changed fields as from/to and the content as a unified diff', () => {
    const { changes, contentDiff } = diffVersions(version(1, {}), version(2, { content: 'one\nthree', labels: ['b'] }));
    expect(changes).toEqual({ content: { from: 'one\ntwo', to: 'one\nthree' }, labels: { from: ['a'], to: ['b'] } });
    expect(contentDiff).toBe(
      ['===================================================================', '--- version 1', '+++ version 2', '@@ -1,2 +1,2 @@', ' one', '-two', '+three', ''].join('\n'),
    );
  });

  it('is empty between equal versions', () => {
    expect(diffVersions(version(1, {}), version(2, {}))).toEqual({ changes: {}, contentDiff: '' });
  });

  it('is the smallest diff, in several hunks, for an ordinary edit of a long prompt', () => {
    const older = lines(300, (i) => `shot ${i}`);
    const newer = older.replace('shot 10\n', 'shot ten\n').replace('shot 200\n', '');
    const { contentDiff } = diffVersions(version(1, { content: older }), version(2, { content: newer }));
    expect(contentDiff).toBe(createTwoFilesPatch('version 1', 'version 2', `${older}\n`, `${newer}\n`, undefined, undefined, { context: 3 }));
    expect(contentDiff.match(/^@@/gm)).toHaveLength(2);
  });

  it.each([
    ['every line different', lines(50_000, () => 'a'), lines(50_000, () => 'b')],
    ['alternating lines', lines(50_000, (i) => (i % 2 ? 'a' : 'b')), lines(50_000, (i) => (i % 3 ? 'a' : 'b'))],
    ['unique lines', lines(15_000, (i) => `a${i}`), lines(15_000, (i) => `b${i}`)],
  ])('past the edit budget (%s) gives one block that still turns the older content into the newer', (_, older, newer) => {
    const { contentDiff } = diffVersions(version(1, { content: older }), version(2, { content: newer }));
    expect(contentDiff.match(/^@@/gm)).toHaveLength(1);
    expect(applyPatch(`${older}\n`, contentDiff)).toBe(`${newer}\n`);
  });
});

describe('blockPatch', () => {
  it('keeps the common first and last lines as context around one replaced block, as the exact diff of such a change is', () => {
    const older = 'a\nb\nc\nd\nold 1\nold 2\ne\nf\ng\nh\n';
    const newer = 'a\nb\nc\nd\nnew 1\ne\nf\ng\nh\n';
    expect(blockPatch('version 1', 'version 2', older, newer)).toBe(createTwoFilesPatch('version 1', 'version 2', older, newer, undefined, undefined, { context: 3 }));
  });

  it.each([
    ['a change at the start', 'x\nb\nc\n', 'y\nb\nc\n'],
    ['a change at the end', 'a\nb\nx\n', 'a\nb\ny\nz\n'],
    ['lines added in the middle', 'a\nb\n', 'a\nnew\nb\n'],
    ['lines removed', 'a\nb\nc\nd\n', 'a\nd\n'],
    ['nothing in common', 'a\n', 'b\nc\n'],
  ])('applies for %s', (_, older, newer) => {
    expect(applyPatch(older, blockPatch('version 1', 'version 2', older, newer))).toBe(newer);
  });
});

describe('editLengthFor', () => {
  it('allows the most edits to short contents and fewer as they grow, never none', () => {
    expect(editLengthFor(200)).toBe(MAX_EDIT_LENGTH);
    expect(editLengthFor(40_000)).toBe(100);
    expect(editLengthFor(200_000)).toBe(64);
  });
});
