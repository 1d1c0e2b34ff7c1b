import { expect } from '@jest/globals';
import { lavfi, makeClip } from '@cinetrace/testing';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveMediaTool, type MediaTool } from './media-tool-paths';
import { frameRate, probeMedia } from './probe-media';

describe('probeMedia', () => {
  const ffprobes: [string, MediaTool][] = [
    ['the system ffprobe', resolveMediaTool('ffprobe', {})],
    ["the npm package's ffprobe", resolveMediaTool('ffprobe', {}, '')],
  ];
  let dir: string;
  let clip: string;
  let silentClip: string;
  let textFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'probe-'));
    clip = makeClip(dir, 'testsrc.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']);
    silentClip = makeClip(dir, 'with-audio.mkv', lavfi('color=c=red:size=64x48:rate=30000/1001:duration=1', 'anullsrc=r=48000:cl=stereo'), ['-shortest', '-c:a', 'flac']);
    textFile = join(dir, 'notes.txt');
    writeFileSync(textFile, 'hello, this is not a video\n'.repeat(20));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each(ffprobes)('with %s', (_, ffprobe) => {
    it('reads a 2 s 320×240 24 fps clip', async () => {
      const outcome = await probeMedia(ffprobe, clip);
      expect(outcome).toEqual({
        ok: true,
        probe: { durationMs: expect.any(Number), width: 320, height: 240, fps: 24, videoCodec: 'h264', audioCodec: null, hasAudio: false, bitRate: expect.any(Number) },
      });
      if (!outcome.ok) return;
      expect(Math.abs(outcome.probe.durationMs! - 2000)).toBeLessThanOrEqual(42);
    });

    it('reads a stream piped to it as well as a file', async () => {
      const outcome = await probeMedia(ffprobe, createReadStream(silentClip));
      expect(outcome).toEqual({
        ok: true,
        probe: expect.objectContaining({ width: 64, height: 48, fps: 29.97, audioCodec: 'flac', hasAudio: true }),
      });
    });

    it('answers a text file with a reason, not a crash', async () => {
      const fromFile = await probeMedia(ffprobe, textFile);
      const fromStream = await probeMedia(ffprobe, createReadStream(textFile));
      for (const outcome of [fromFile, fromStream]) {
        expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/invalid data|no audio or video stream/i) });
      }
    });
  });

  it('answers a missing file with a reason', async () => {
    expect(await probeMedia(ffprobes[0][1], join(dir, 'gone.mp4'))).toEqual({ ok: false, reason: 'No such file or directory' });
  });

  it('stops a probe that takes too long', async () => {
    const { PassThrough } = await import('node:stream');
    const neverEnding = new PassThrough();
    expect(await probeMedia(ffprobes[0][1], neverEnding, { timeoutMs: 300 })).toEqual({ ok: false, reason: 'probing took too long' });
    expect(neverEnding.destroyed).toBe(true);
  });

  it('reads frame rates as ffprobe writes them', () => {
    expect([frameRate('24/1'), frameRate('30000/1001'), frameRate('0/0'), frameRate(undefined), frameRate('25')]).toEqual([24, 29.97, null, null, null]);
  });
});

describe('probeMedia with a pixel limit (MEDIA_MAX_PIXELS)', () => {
  const ffprobe = resolveMediaTool('ffprobe', {}, '');
  let dir: string;
  let bomb: string;
  let clip: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'probe-pixels-'));
    // An "image bomb": one 8000×8000 picture of one colour, ~190 KB of PNG, ~256 MB once decoded.
    bomb = makeClip(dir, 'bomb.png', lavfi('color=c=black:size=8000x8000'), ['-frames:v', '1']);
    clip = makeClip(dir, 'clip.mp4', lavfi('testsrc=size=320x240:rate=24:duration=1'), ['-pix_fmt', 'yuv420p']);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a picture past the limit from its header, saying its size and the limit', async () => {
    const reason = 'the picture is 8000×8000 (64,000,000 pixels), more than the 40,000,000 this service decodes (MEDIA_MAX_PIXELS)';
    expect(await probeMedia(ffprobe, bomb, { maxPixels: 40_000_000 })).toEqual({ ok: false, reason });
    expect(await probeMedia(ffprobe, createReadStream(bomb), { maxPixels: 40_000_000 })).toEqual({ ok: false, reason });
  });

  it('reads pictures within the limit as before, and the bomb itself without one', async () => {
    expect(await probeMedia(ffprobe, clip, { maxPixels: 40_000_000 })).toMatchObject({ ok: true, probe: { width: 320, height: 240 } });
    expect(await probeMedia(ffprobe, bomb)).toMatchObject({ ok: true, probe: { width: 8000, height: 8000 } });
  });

  it('holds the limit on a size read from the header alone', async () => {
    expect(await probeMedia(ffprobe, clip, { maxPixels: 320 * 240 - 1 })).toEqual({
      ok: false,
      reason: 'the picture is 320×240 (76,800 pixels), more than the 76,799 this service decodes (MEDIA_MAX_PIXELS)',
    });
  });
});
