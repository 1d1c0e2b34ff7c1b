import { expect } from '@jest/globals';
import { lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseVideo, videoQaArgs, type AnalysedMedia } from './analyse-video';
import { MediaAnalysisError } from './media-analysis-error';
import { resolveMediaTool } from './media-tool-paths';

const LIMITS = { timeoutMs: 60_000 };
const SIZE = 'size=320x240:rate=24';

describe('analyseVideo (video_qa) with the system ffmpeg', () => {
  const ffmpeg = resolveMediaTool('ffmpeg', {});
  let dir: string;
  let blackSecond: AnalysedMedia;
  let strobe: AnalysedMedia;
  let blurred: AnalysedMedia;
  let quietTone: AnalysedMedia;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'analyse-'));
    // 3 s: a test pattern, one black second (1 s to 2 s), the pattern again, over a loud tone.
    blackSecond = {
      path: makeClip(
        dir,
        'black.mp4',
        [...lavfi(`testsrc=${SIZE}:duration=1`, `color=black:${SIZE}:duration=1`, `testsrc=${SIZE}:duration=1`, 'sine=frequency=440:duration=3')],
        ['-filter_complex', '[0:v][1:v][2:v]concat=n=3:v=1:a=0[v]', '-map', '[v]', '-map', '3:a', '-pix_fmt', 'yuv420p'],
      ),
      durationMs: 3000,
      hasVideo: true,
      hasAudio: true,
    };
    // White and black, two frames each at 24 fps: six flashes a second.
    strobe = {
      path: makeClip(dir, 'strobe.mp4', lavfi(`color=white:${SIZE}:duration=2,format=yuv420p,geq=lum='if(lt(mod(N\\,4)\\,2)\\,235\\,16)':cb=128:cr=128`), ['-pix_fmt', 'yuv420p']),
      durationMs: 2000,
      hasVideo: true,
      hasAudio: false,
    };
    blurred = { path: makeClip(dir, 'blurred.mp4', lavfi(`testsrc=${SIZE}:duration=2,boxblur=6`), ['-pix_fmt', 'yuv420p']), durationMs: 2000, hasVideo: true, hasAudio: false };
    // A tone for 1 s, then 2 s of silence.
    quietTone = {
      path: makeClip(dir, 'tone.m4a', lavfi('sine=frequency=440:duration=1', 'anullsrc=r=44100:cl=mono'), [
        '-filter_complex',
        '[0:a][1:a]concat=n=2:v=0:a=1,atrim=0:3[a]',
        '-map',
        '[a]',
      ]),
      durationMs: 3000,
      hasVideo: false,
      hasAudio: true,
    };
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the black second, and the freeze it is, in one pass with every check', async () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('cinetrace-qa-')).length;
    const { findings, measures } = await analyseVideo(ffmpeg, blackSecond, ['black', 'freeze', 'flicker', 'blur', 'silence', 'loudness', 'flashes'], {}, LIMITS);
    const black = findings.filter((f) => f.check === 'black');
    expect(black).toEqual([{ check: 'black', startMs: expect.any(Number), endMs: expect.any(Number), value: expect.any(Number) }]);
    expect(black[0].startMs).toBeGreaterThanOrEqual(950);
    expect(black[0].startMs).toBeLessThanOrEqual(1050);
    expect(black[0].endMs).toBeGreaterThanOrEqual(1950);
    expect(black[0].endMs).toBeLessThanOrEqual(2050);
    expect(findings.filter((f) => f.check === 'freeze').map((f) => [f.startMs, f.endMs])).toEqual([[black[0].startMs, black[0].endMs]]);
    // A steady tone: no silence, and its loudness measured (a full-scale sine is far louder than -14 LUFS).
    expect(findings.some((f) => f.check === 'silence')).toBe(false);
    expect(measures.loudness!.integratedLufs).toBeGreaterThan(-30);
    // Two cuts are not flicker nor flashes; the pattern is sharp.
    expect(findings.filter((f) => ['flicker', 'flashes', 'blur'].includes(f.check))).toEqual([]);
    expect(measures.flicker!.score).toBeGreaterThan(0.9);
    expect(measures.flicker!.score).toBeLessThan(1);
    expect(measures.blur!.mean).toBeLessThan(12);
    // Its temporary directory is gone.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('cinetrace-qa-')).length).toBe(before);
  });

  it('finds a strobe as flashes (WCAG: more than three a second) and as flicker', async () => {
    const { findings, measures } = await analyseVideo(ffmpeg, strobe, ['flashes', 'flicker'], {}, LIMITS);
    const flashes = findings.find((f) => f.check === 'flashes');
    expect(flashes).toBeDefined();
    expect(flashes!.value).toBeGreaterThan(3);
    expect(flashes!.endMs - flashes!.startMs).toBeGreaterThan(1000);
    expect(findings.some((f) => f.check === 'flicker')).toBe(true);
    expect(measures.flicker!.score).toBeLessThan(0.8);
  });

  it('finds blur above its threshold, and none when the threshold is raised', async () => {
    const found = await analyseVideo(ffmpeg, blurred, ['blur'], {}, LIMITS);
    expect(found.findings).toEqual([{ check: 'blur', startMs: 0, endMs: 2000, value: expect.any(Number) }]);
    const lenient = await analyseVideo(ffmpeg, blurred, ['blur'], { blur: { max: 100 } }, LIMITS);
    expect(lenient.findings).toEqual([]);
  });

  it('finds the silent end of an audio track, and calls a media without audio silent throughout', async () => {
    const { findings } = await analyseVideo(ffmpeg, quietTone, ['silence'], {}, LIMITS);
    expect(findings).toHaveLength(1);
    expect(findings[0].startMs).toBeGreaterThanOrEqual(950);
    expect(findings[0].startMs).toBeLessThanOrEqual(1100);
    expect(findings[0].endMs).toBeGreaterThanOrEqual(2900);
    const mute = await analyseVideo(ffmpeg, strobe, ['silence', 'loudness'], {}, LIMITS);
    expect(mute.findings).toEqual([
      { check: 'loudness', startMs: 0, endMs: 2000, value: null },
      { check: 'silence', startMs: 0, endMs: 2000, value: 2 },
    ]);
  });

  it('refuses video checks on a media without video, and stops an analysis past its time', async () => {
    await expect(analyseVideo(ffmpeg, quietTone, ['black'], {}, LIMITS)).rejects.toThrow(new MediaAnalysisError('the media has no video stream for black'));
    await expect(analyseVideo(ffmpeg, blackSecond, ['black', 'blur', 'flicker'], {}, { timeoutMs: 1 })).rejects.toThrow(/time limit/);
  });
});

describe('videoQaArgs (the one ffmpeg pass, as bench/media.js runs it bare)', () => {
  it('decodes the file once, one thread, a branch per check writing to its own file, the last one to the null output, audio checks only where there is audio', () => {
    const args = videoQaArgs({ path: '/media/clip', hasAudio: true }, ['black', 'blur', 'silence'], { black: { minDurationMs: 250 } }, '/tmp/qa');
    expect(args.filter((arg) => arg === '-i')).toHaveLength(1);
    expect(args.slice(args.indexOf('-i') - 2, args.indexOf('-i') + 2)).toEqual(['-protocol_whitelist', 'file', '-i', 'file:/media/clip']);
    expect(args.slice(args.indexOf('-threads'), args.indexOf('-threads') + 2)).toEqual(['-threads', '1']);
    const graph = args[args.indexOf('-filter_complex') + 1].split(';');
    expect(graph).toEqual([
      '[0:v:0]split=2[v0][v1]',
      expect.stringMatching(/^\[v0\]blackdetect=d=0\.250:.*file=\/tmp\/qa\/black\.txt,nullsink$/),
      expect.stringMatching(/^\[v1\]blurdetect,.*file=\/tmp\/qa\/blur\.txt,nullsink$/),
      // The last branch is the graph's output (to the null muxer): ffmpeg 7 refuses a graph without one.
      expect.stringMatching(/^\[0:a:0\]silencedetect=.*file=\/tmp\/qa\/silence\.txt$/),
    ]);
    expect(args.slice(-3)).toEqual(['-f', 'null', '-']);
    expect(videoQaArgs({ path: '/media/clip', hasAudio: false }, ['silence', 'loudness'], {}, '/tmp/qa')).toEqual([]);
    expect(() => videoQaArgs({ path: '/media/clip', hasAudio: true }, ['black'], {}, '/tmp/a b')).toThrow(/characters a filter graph cannot take/);
  });
});
