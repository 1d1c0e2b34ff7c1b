import { expect } from '@jest/globals';
import { lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveMediaTool } from './media-tool-paths';
import { MediaToolRunError } from './run-media-tool';
import { detectSceneCuts, parseSceneCuts } from './scene-cuts';

const ffmpeg = resolveMediaTool('ffmpeg', {});

describe('detectSceneCuts', () => {
  let dir: string;
  let clip: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scenes-'));
    // 3 s red, 3 s blue, then 14 s of testsrc (a moving picture: no cut inside it).
    clip = makeClip(
      dir,
      'scenes.mp4',
      lavfi('color=c=red:size=320x240:rate=24:duration=3', 'color=c=blue:size=320x240:rate=24:duration=3', 'testsrc=size=320x240:rate=24:duration=14'),
      ['-filter_complex', '[0][1][2]concat=n=3:v=1:a=0', '-pix_fmt', 'yuv420p'],
    );
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the cuts of a red, blue, testsrc clip near 3000 and 6000 ms, and none inside the moving part', async () => {
    const cuts = await detectSceneCuts(ffmpeg, clip, { timeoutMs: 60_000 });
    expect(cuts).toHaveLength(2);
    expect(Math.abs(cuts[0] - 3000)).toBeLessThanOrEqual(42);
    expect(Math.abs(cuts[1] - 6000)).toBeLessThanOrEqual(42);
  });

  it('is bounded in time: a run past its limit is killed', async () => {
    await expect(detectSceneCuts(ffmpeg, clip, { timeoutMs: 1 })).rejects.toBeInstanceOf(MediaToolRunError);
  });

  it("reads metadata=print's lines", () => {
    expect(parseSceneCuts('frame:1    pts:73728   pts_time:6\nlavfi.scene_score=1.000000\nframe:0    pts:36864   pts_time:3.0415\nlavfi.scene_score=0.9\n')).toEqual([3042, 6000]);
  });
});
