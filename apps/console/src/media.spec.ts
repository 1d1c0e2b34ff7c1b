import { asMedia, findMedia, mediaOf } from './media';

describe('media detection', () => {
  it('names a video, image or audio asset by its content type', () => {
    expect(asMedia({ url: 'https://cdn.example/clip.mp4', contentType: 'video/mp4' })).toMatchObject({ kind: 'video' });
    expect(asMedia({ url: 'https://cdn.example/a.png', contentType: 'image/png', width: 10 })).toMatchObject({ kind: 'image' });
    expect(asMedia({ url: 'https://cdn.example/a.wav', contentType: 'Audio/WAV' })).toMatchObject({ kind: 'audio' });
  });

  it('ignores other content types, missing fields and URLs a media element must not load', () => {
    expect(asMedia({ url: 'https://x/a.json', contentType: 'application/json' })).toBeNull();
    expect(asMedia({ url: 'https://x/a.mp4' })).toBeNull();
    expect(asMedia({ url: 'javascript:alert(1)', contentType: 'video/mp4' })).toBeNull();
    expect(asMedia({ url: 'file:///etc/passwd', contentType: 'image/png' })).toBeNull();
    expect(asMedia('https://x/a.mp4')).toBeNull();
    expect(asMedia([{ url: 'https://x/a.mp4', contentType: 'video/mp4' }])).toBeNull();
  });

  it('finds an array of assets and nested ones, with where they are', () => {
    const output = [{ url: 'https://x/1.mp4', contentType: 'video/mp4' }, { result: { poster: { url: 'data:image/png;base64,AA', contentType: 'image/png' } } }];
    expect(findMedia(output, 'output').map((m) => m.path)).toEqual(['output[0]', 'output[1].result.poster']);
  });

  it('looks at output, then attributes', () => {
    const span = { output: { url: 'https://x/o.mp4', contentType: 'video/mp4' }, attributes: { thumb: { url: 'https://x/t.jpg', contentType: 'image/jpeg' } } };
    expect(mediaOf(span).map((m) => [m.kind, m.path])).toEqual([
      ['video', 'output'],
      ['image', 'attributes.thumb'],
    ]);
    expect(mediaOf({ output: 'text' })).toEqual([]);
  });

  it('names a stored media by its mediaId, with or without the url it was copied from', () => {
    expect(asMedia({ url: 'https://cdn.example/clip.mp4', contentType: 'video/mp4', mediaId: 'med_01jh8z6v9q3m2r7x5c4b1n0k8d' })).toEqual({
      mediaId: 'med_01jh8z6v9q3m2r7x5c4b1n0k8d',
      url: 'https://cdn.example/clip.mp4',
      contentType: 'video/mp4',
      kind: 'video',
      path: '',
    });
    // A benchmark output names its media by id alone: the stored media says its kind.
    expect(findMedia({ video: { mediaId: 'med_01jh8z6v9q3m2r7x5c4b1n0k8d' } }, 'output')).toEqual([
      { mediaId: 'med_01jh8z6v9q3m2r7x5c4b1n0k8d', url: null, contentType: null, kind: null, path: 'output.video' },
    ]);
    // A url a media element must not load is dropped; the copy still plays.
    expect(asMedia({ url: 'javascript:alert(1)', contentType: 'video/mp4', mediaId: 'med_1' })).toMatchObject({ mediaId: 'med_1', url: null });
  });

  it('never takes an id that is not a media id, nor a stored media of another type', () => {
    expect(asMedia({ mediaId: '../../api-keys' })).toBeNull();
    expect(asMedia({ mediaId: 'med_1?x=1' })).toBeNull();
    expect(asMedia({ mediaId: 42 })).toBeNull();
    expect(asMedia({ mediaId: 'med_1', contentType: 'application/json' })).toBeNull();
  });
});
