import { expect } from '@jest/globals';
import { mediaIdsIn } from './output-media';

const media = (n: number) => `med_${String(n).padStart(26, '0')}`;

describe('mediaIdsIn', () => {
  it('finds a { mediaId } at any depth, in arrays and objects, each once, in document order', () => {
    const output = { mediaId: media(1), shots: [{ video: { mediaId: media(2) } }, { mediaId: media(1) }, [{ deeper: { mediaId: media(3) } }]] };
    expect(mediaIdsIn(output)).toEqual([media(1), media(2), media(3)]);
    expect(mediaIdsIn([{ mediaId: media(4) }, { mediaId: media(5) }])).toEqual([media(4), media(5)]);
  });

  it('ignores what is not a media id: other strings, other types, a mediaId that is only text in a string', () => {
    expect(mediaIdsIn({ mediaId: 'med_short' })).toEqual([]);
    expect(mediaIdsIn({ mediaId: 42, url: 'https://cdn.example.com/a.mp4', contentType: 'video/mp4' })).toEqual([]);
    expect(mediaIdsIn(`{"mediaId":"${media(1)}"}`)).toEqual([]);
    expect(mediaIdsIn({ mediaId: media(1).toUpperCase() })).toEqual([]);
    expect(mediaIdsIn(null)).toEqual([]);
    expect(mediaIdsIn(undefined)).toEqual([]);
  });

  it('stops at `max` ids', () => {
    const output = Array.from({ length: 10 }, (_, i) => ({ mediaId: media(i) }));
    expect(mediaIdsIn(output, 3)).toEqual([media(0), media(1), media(2)]);
  });

  it('walks an output nested far deeper than the call stack would allow', () => {
    let output: unknown = { mediaId: media(7) };
    for (let i = 0; i < 100_000; i++) output = { inner: output };
    expect(mediaIdsIn(output)).toEqual([media(7)]);
  });
});
