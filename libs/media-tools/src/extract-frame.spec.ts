import { expect } from '@jest/globals';
import { lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { extractFrame } from './extract-frame';
import { resolveMediaTool } from './media-tool-paths';
import { MediaUnreadableError } from './media-unreadable-error';
import { probeMedia } from './probe-media';
import { runMediaTool } from './run-media-tool';

const ffmpeg = resolveMediaTool('ffmpeg', {});
const ffprobe = resolveMediaTool('ffprobe', {});
const LIMITS = { timeoutMs: 20_000 };

/** The picture's average colour: ffmpeg scales the JPEG to one pixel and answers its RGB. */
async function averageColour(jpeg: Buffer): Promise<[number, number, number]> {
  const run = await runMediaTool(ffmpeg.path, ['-v', 'error', '-f', 'image2pipe', '-i', 'pipe:0', '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    ...LIMITS,
    maxOutputBytes: 3,
    input: Readable.from([jpeg]),
  });
  return [run.stdout[0], run.stdout[1], run.stdout[2]];
}

describe('extractFrame', () => {
  let dir: string;
  let clip: string;
  let wide: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'frames-'));
    // 2 s red, then 2 s blue: which colour a frame shows says which instant it is.
    clip = makeClip(dir, 'red-blue.mp4', lavfi('color=c=red:size=320x240:rate=24:duration=2', 'color=c=blue:size=320x240:rate=24:duration=2'), [
      ...['-filter_complex', '[0][1]concat=n=2:v=1:a=0', '-pix_fmt', 'yuv420p'],
    ]);
    wide = makeClip(dir, 'wide.mp4', lavfi('testsrc=size=1920x1080:rate=24:duration=1'), ['-pix_fmt', 'yuv420p']);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a JPEG of the instant asked for, at the clip size', async () => {
    const red = (await extractFrame(ffmpeg, clip, { atMs: 1000, ...LIMITS }))!;
    const blue = (await extractFrame(ffmpeg, clip, { atMs: 3000, ...LIMITS }))!;
    expect(red.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const [r1, , b1] = await averageColour(red);
    const [r2, , b2] = await averageColour(blue);
    expect(r1).toBeGreaterThan(200);
    expect(b1).toBeLessThan(60);
    expect(b2).toBeGreaterThan(200);
    expect(r2).toBeLessThan(60);
    const file = join(dir, 'red.jpg');
    writeFileSync(file, red);
    expect(await probeMedia(ffprobe, file)).toMatchObject({ ok: true, probe: { width: 320, height: 240 } });
  });

  it('scales a picture wider than maxWidth down, keeping its aspect', async () => {
    const frame = (await extractFrame(ffmpeg, wide, { atMs: 500, ...LIMITS }))!;
    const file = join(dir, 'wide.jpg');
    writeFileSync(file, frame);
    expect(await probeMedia(ffprobe, file)).toMatchObject({ ok: true, probe: { width: 1280, height: 720 } });
  });

  it('gives the last frame for an instant between it and the end of the container', async () => {
    const last = (await extractFrame(ffmpeg, clip, { atMs: 3990, ...LIMITS }))!;
    expect(last.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await averageColour(last))[2]).toBeGreaterThan(200);
  });

  it('says ffmpeg could not read a video cut short (its index lost)', async () => {
    const truncated = join(dir, 'truncated.mp4');
    writeFileSync(truncated, readFileSync(clip).subarray(0, 2000));
    await expect(extractFrame(ffmpeg, truncated, { atMs: 0, ...LIMITS })).rejects.toBeInstanceOf(MediaUnreadableError);
  });
});
