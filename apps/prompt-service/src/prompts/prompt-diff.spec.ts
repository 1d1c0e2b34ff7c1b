import { diffVersions } from './prompt-diff';

const version = (n: number, fields: Partial<{ name: string; content: string; labels: string[]; metadata: Record<string, unknown> }>) => ({
  version: n,
  name: 'Shot',
  content: 'one\ntwo',
  labels: ['a'],
  metadata: {},
  ...fields,
});

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
});
