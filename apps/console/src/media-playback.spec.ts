import type { Media } from './api-types';
import { COPY_MAX_BYTES, kindOf, playbackOf } from './media-playback';
import type { StoredMedia } from './media';

const asset = (url: string | null): StoredMedia => ({ mediaId: 'med_1', url, contentType: null, kind: null, path: 'output.video' });
const media = (fields: Partial<Media> = {}): Media =>
  ({
    id: 'med_1',
    projectId: 'prj_1',
    sha256: 'ab',
    contentType: 'video/mp4',
    bytes: 1000,
    sourceUrl: null,
    status: 'ready',
    probe: null,
    error: null,
    createdAt: '',
    ...fields,
  }) as Media;

describe('where a stored media plays from', () => {
  it('plays our copy when it is small enough to fetch', () => {
    expect(playbackOf(asset(null), media())).toEqual({ from: 'copy' });
    expect(playbackOf(asset(null), media({ bytes: COPY_MAX_BYTES }))).toEqual({ from: 'copy' });
  });

  it('falls back to an https URL the output named, saying why', () => {
    const big = playbackOf(asset('https://cdn.example/clip.mp4'), media({ bytes: COPY_MAX_BYTES + 1 }));
    expect(big).toMatchObject({ from: 'url', url: 'https://cdn.example/clip.mp4' });
    expect((big as { reason: string }).reason).toMatch(/larger than 64 MiB/);
    expect(playbackOf(asset('https://cdn.example/clip.mp4'), media(), true)).toMatchObject({ from: 'url' });
    expect(playbackOf(asset('https://cdn.example/clip.mp4'), null)).toMatchObject({ from: 'url' });
  });

  it('never plays an http URL (the console only loads https media), nor a failed copy', () => {
    expect(playbackOf(asset('http://10.0.0.1/clip.mp4'), media({ bytes: COPY_MAX_BYTES + 1 }))).toMatchObject({ from: 'none' });
    expect(playbackOf(asset(null), media({ status: 'failed' }))).toEqual({ from: 'none', reason: 'Not played here: the stored copy is not playable media.' });
  });

  it('takes the kind from the output, else from the stored type', () => {
    expect(kindOf({ ...asset(null), kind: 'image' }, media())).toBe('image');
    expect(kindOf(asset(null), media({ contentType: 'audio/flac' }))).toBe('audio');
    expect(kindOf(asset(null), null)).toBeNull();
  });
});
