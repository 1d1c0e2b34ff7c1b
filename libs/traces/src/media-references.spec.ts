import { namesMediaUrl, uncopiedMediaIn, withMediaIds } from './media-references';

const CLIP = 'https://cdn.example/renders/shot-1.mp4?sig=abc';
const video = (over: Record<string, unknown> = {}) => ({ url: CLIP, contentType: 'video/mp4', ...over });

describe('uncopiedMediaIn', () => {
  it('finds the output itself when it is { url, contentType } of a video, image or audio type', () => {
    expect(uncopiedMediaIn(video({ width: 320 }))).toEqual([{ url: CLIP, contentType: 'video/mp4' }]);
    expect(uncopiedMediaIn({ url: 'http://cdn.example/a.png', contentType: 'image/png' })).toEqual([{ url: 'http://cdn.example/a.png', contentType: 'image/png' }]);
    expect(uncopiedMediaIn({ url: 'https://cdn.example/a.mp3', contentType: 'Audio/MPEG; rate=44100' })).toEqual([{ url: 'https://cdn.example/a.mp3', contentType: 'audio/mpeg' }]);
  });

  it('finds the items of an array of them, each url once, and skips the items that are not', () => {
    const other = 'https://cdn.example/shot-2.mp4';
    expect(uncopiedMediaIn([video(), 'a caption', video({ url: other }), video(), { text: 'x' }])).toEqual([
      { url: CLIP, contentType: 'video/mp4' },
      { url: other, contentType: 'video/mp4' },
    ]);
  });

  it.each([
    ['text', 'a fox at dawn'],
    ['a number', 42],
    ['null', null],
    ['a message list', [{ role: 'assistant', content: 'Shot 1: a fox' }]],
    ['a media with its mediaId already', video({ mediaId: 'med_1' })],
    ['a mediaId alone', { mediaId: 'med_1' }],
    ['no content type', { url: CLIP }],
    ['a content type that is not media', video({ contentType: 'application/pdf' })],
    ['a url that is not http(s)', video({ url: 'data:video/mp4;base64,AAAA' })],
    ['a url with spaces', video({ url: 'https://cdn.example/a b.mp4' })],
    ['a url longer than 2048 characters', video({ url: `https://cdn.example/${'a'.repeat(2048)}` })],
    ['a media nested in another object', { result: video() }],
    ['an array nested in an array', [[video()]]],
  ])('finds nothing in %s', (_, output) => {
    expect(uncopiedMediaIn(output)).toEqual([]);
  });
});

describe('withMediaIds', () => {
  const ids = new Map([[CLIP, 'med_1']]);

  it('sets mediaId beside the url, keeping every other field', () => {
    expect(withMediaIds(video({ width: 320 }), ids)).toEqual(video({ width: 320, mediaId: 'med_1' }));
    expect(withMediaIds(['a caption', video(), video({ url: 'https://cdn.example/other.mp4' })], ids)).toEqual([
      'a caption',
      video({ mediaId: 'med_1' }),
      video({ url: 'https://cdn.example/other.mp4' }),
    ]);
  });

  it('changes nothing (undefined) where the output names none of the urls or has its mediaId', () => {
    expect(withMediaIds(video({ url: 'https://cdn.example/replaced.mp4' }), ids)).toBeUndefined();
    expect(withMediaIds(video({ mediaId: 'med_own' }), ids)).toBeUndefined();
    expect(withMediaIds('text', ids)).toBeUndefined();
    expect(withMediaIds([video({ mediaId: 'med_1' })], ids)).toBeUndefined();
  });
});

describe('namesMediaUrl', () => {
  it('tells whether the output or its items name one of the urls', () => {
    const urls = new Set([CLIP]);
    expect(namesMediaUrl(video({ mediaId: 'med_1' }), urls)).toBe(true);
    expect(namesMediaUrl(['x', video()], urls)).toBe(true);
    expect(namesMediaUrl(video({ url: 'https://cdn.example/replaced.mp4' }), urls)).toBe(false);
    expect(namesMediaUrl(null, urls)).toBe(false);
  });
});
