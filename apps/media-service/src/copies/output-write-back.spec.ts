import type { MediaCopy } from '../store/media-copy.entity';
import type { Media } from '../store/media.entity';
import { outputWriteBack } from './output-write-back';

const copy = (id: string, over: Partial<MediaCopy> = {}): MediaCopy => ({
  id,
  projectId: 'prj_1',
  url: `https://cdn.example/${id}.mp4`,
  contentType: 'video/mp4',
  status: 'copied',
  mediaId: `med_${id}`,
  error: null,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

const media = (id: string, over: Partial<Media> = {}): Media => ({
  id: `med_${id}`,
  projectId: 'prj_1',
  sha256: id.padEnd(64, '0'),
  contentType: 'video/mp4',
  bytes: 1000,
  blobKey: `prj_1/${id}`,
  sourceUrl: `https://cdn.example/${id}.mp4`,
  status: 'ready',
  probe: { durationMs: 2000, width: 320, height: 240, fps: 24, videoCodec: 'h264', audioCodec: null, hasAudio: false, bitRate: 1 },
  error: null,
  createdAt: 0,
  ...over,
});

const byId = (...rows: Media[]) => new Map(rows.map((m) => [m.id, m]));

describe('outputWriteBack', () => {
  it('gives a span its mediaId and the probed seconds once its media is ready: done', () => {
    expect(outputWriteBack('render', [copy('a')], byId(media('a')))).toEqual({
      attachment: { spanId: 'render', media: [{ url: 'https://cdn.example/a.mp4', mediaId: 'med_a' }], videoSeconds: 2 },
      stage: 'done',
    });
  });

  it('gives the mediaId alone while the probe runs: media, not done', () => {
    expect(outputWriteBack('render', [copy('a')], byId(media('a', { status: 'pending', probe: null })))).toEqual({
      attachment: { spanId: 'render', media: [{ url: 'https://cdn.example/a.mp4', mediaId: 'med_a' }], videoSeconds: null },
      stage: 'media',
    });
  });

  it('sums the seconds of the ready video and audio of an output naming several, not those of an image', () => {
    const audio = media('b', { contentType: 'audio/mpeg', probe: { ...media('b').probe!, durationMs: 1500 } });
    const still = media('c', { contentType: 'image/png', probe: { ...media('c').probe!, durationMs: null } });
    const { attachment, stage } = outputWriteBack('render', [copy('a'), copy('b'), copy('c')], byId(media('a'), audio, still));
    expect(attachment?.videoSeconds).toBe(3.5);
    expect(stage).toBe('done');
  });

  it("writes no seconds into the trace's own output", () => {
    expect(outputWriteBack(null, [copy('a')], byId(media('a'))).attachment?.videoSeconds).toBeNull();
  });

  it('writes nothing for failed or pending copies: done once all failed, none while one is pending', () => {
    expect(outputWriteBack('render', [copy('a', { status: 'failed', mediaId: null })], byId())).toEqual({ attachment: null, stage: 'done' });
    expect(outputWriteBack('render', [copy('a', { status: 'pending', mediaId: null })], byId())).toEqual({ attachment: null, stage: 'none' });
    const mixed = outputWriteBack('render', [copy('a'), copy('b', { status: 'pending', mediaId: null })], byId(media('a')));
    expect(mixed).toMatchObject({ attachment: { videoSeconds: 2 }, stage: 'media' });
  });
});
