import { diffPrompt } from './prompt-changes';

const stored = { name: 'Intro', content: 'A {{subject}}', labels: ['a', 'b'], metadata: { x: 1, y: { z: 2 } } };

describe('diffPrompt', () => {
  it('reports only the sent fields that differ, as from/to', () => {
    expect(diffPrompt(stored, { name: 'Intro', content: 'B' })).toEqual({ content: { from: 'A {{subject}}', to: 'B' } });
  });

  it('treats the same labels in another order and the same metadata in another key order as no change', () => {
    expect(diffPrompt(stored, { labels: ['b', 'a'], metadata: { y: { z: 2 }, x: 1 } })).toEqual({});
  });

  it('replaces metadata wholesale: a dropped key is a change', () => {
    expect(diffPrompt(stored, { metadata: { x: 1 } })).toEqual({ metadata: { from: stored.metadata, to: { x: 1 } } });
  });
});
