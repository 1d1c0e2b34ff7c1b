import { expect } from '@jest/globals';
import { lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareVideo, psnrOf, signatureOf, ssimOf, type ComparedMedia } from './compare-video';
import { resolveMediaTool } from './media-tool-paths';

const LIMITS = { timeoutMs: 60_000 };
const clip = (path: string, width = 320, height = 240): ComparedMedia => ({ path, width, height, fps: 24, durationMs: 2000 });

describe('compareVideo (video_similarity) with the system ffmpeg', () => {
  const ffmpeg = resolveMediaTool('ffmpeg', {});
  let dir: string;
  let source: ComparedMedia;
  let lowQuality: ComparedMedia;
  let smaller: ComparedMedia;
  let unrelated: ComparedMedia;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compare-'));
    source = clip(makeClip(dir, 'source.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']));
    // The source re-encoded at a very low quality, and at half the size.
    lowQuality = clip(makeClip(dir, 'low.mp4', ['-i', source.path], ['-c:v', 'libx264', '-crf', '45', '-pix_fmt', 'yuv420p']));
    smaller = clip(makeClip(dir, 'small.mp4', ['-i', source.path], ['-vf', 'scale=160:120', '-pix_fmt', 'yuv420p']), 160, 120);
    unrelated = clip(makeClip(dir, 'unrelated.mp4', lavfi('mandelbrot=size=320x240:rate=24'), ['-t', '2', '-pix_fmt', 'yuv420p']));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['ssim', 'psnr'] as const)('%s: a low-quality re-encode scores in (0.5, 1), an unrelated clip low, the source itself 1', async (method) => {
    const low = await compareVideo(ffmpeg, lowQuality, source, method, LIMITS);
    expect(low.score).toBeGreaterThan(0.5);
    expect(low.score).toBeLessThan(1);
    expect(low.frames).toBe(48);
    const other = await compareVideo(ffmpeg, unrelated, source, method, LIMITS);
    expect(other.score).toBeLessThan(0.5);
    expect(other.score).toBeLessThan(low.score);
    expect((await compareVideo(ffmpeg, source, source, method, LIMITS)).score).toBe(1);
  });

  it('compares a smaller output at the reference size', async () => {
    const scaled = await compareVideo(ffmpeg, smaller, source, 'ssim', LIMITS);
    expect(scaled.score).toBeGreaterThan(0.5);
    expect(scaled.score).toBeLessThan(1);
  });

  it('signature: the re-encode matches almost every frame, the unrelated clip none', async () => {
    const low = await compareVideo(ffmpeg, lowQuality, source, 'signature', LIMITS);
    expect(low.score).toBeGreaterThan(0.9);
    expect(await compareVideo(ffmpeg, unrelated, source, 'signature', LIMITS)).toMatchObject({ score: 0, value: 0 });
  });
});

describe('reading the filters’ statistics', () => {
  it('averages SSIM, turns the mean squared error into PSNR, and counts matched frames', () => {
    expect(ssimOf('n:1 Y:0.9 U:1 V:1 All:0.8 (7)\nn:2 Y:1 U:1 V:1 All:1.000000 (inf)\n')).toEqual({ method: 'ssim', score: 0.9, value: 0.9, frames: 2 });
    expect(psnrOf('n:1 mse_avg:6.50 psnr_avg:40.00\nn:2 mse_avg:6.50 psnr_avg:40.00\n')).toMatchObject({ score: expect.closeTo(0.8, 2), value: expect.closeTo(39.97, 1) });
    expect(psnrOf('n:1 mse_avg:0.00 psnr_avg:inf\n')).toEqual({ method: 'psnr', score: 1, value: null, frames: 1 });
    expect(signatureOf('matching of video 0 at 1.2 and 1 at 1.25, 24 frames matching\nwhole video matching', 48).score).toBe(0.5);
    expect(() => ssimOf('')).toThrow('no frames could be compared');
  });
});
