import { resolutionKey, spanResolution } from './resolution';

describe('resolutionKey', () => {
  it.each([
    ['1080p', 'p1080'],
    ['720P', 'p720'],
    ['4k', 'p2160'],
    ['8K', 'p4320'],
    ['1792x1024', 'd1024x1792'],
    ['1024x1792', 'd1024x1792'],
  ])('%s is %s', (label, key) => {
    expect(resolutionKey(label)).toBe(key);
  });
});

describe('spanResolution', () => {
  it("reads a media output's width and height, shorter side first, in either orientation", () => {
    expect(spanResolution({ url: 'https://cdn.example/a.mp4', width: 1920, height: 1080 }, null)).toEqual({ size: 'd1080x1920', shortSide: 'p1080' });
    expect(spanResolution({ width: 720, height: 1280 }, null)).toEqual({ size: 'd720x1280', shortSide: 'p720' });
  });

  it('reads the first media of an array, and a resolution label when no size is given', () => {
    expect(
      spanResolution(
        [
          { width: 3840, height: 2160 },
          { width: 10, height: 10 },
        ],
        null,
      ),
    ).toEqual({ size: 'd2160x3840', shortSide: 'p2160' });
    expect(spanResolution({ resolution: '4k' }, null)).toEqual({ size: null, shortSide: 'p2160' });
    expect(spanResolution({ resolution: '1280x720' }, null)).toEqual({ size: 'd720x1280', shortSide: 'p720' });
  });

  it('falls back to the OTLP video attributes', () => {
    expect(spanResolution('a text output', { 'cinetrace.video.width': 1024, 'cinetrace.video.height': 1792 })).toEqual({ size: 'd1024x1792', shortSide: 'p1024' });
  });

  it('is null when nothing says, or what says is not a size', () => {
    expect(spanResolution(null, null)).toBeNull();
    expect(spanResolution({ width: '1920', height: 1080 }, {})).toBeNull();
    expect(spanResolution({ width: 1920.5, height: 1080 }, undefined)).toBeNull();
    expect(spanResolution({ resolution: 'hd' }, null)).toBeNull();
  });
});
