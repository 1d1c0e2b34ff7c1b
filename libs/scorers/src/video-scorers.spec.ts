import { expect } from '@jest/globals';
import { probeMedia, resolveMediaTool } from '@cinetrace/media-tools';
import { lavfi, makeClip } from '@cinetrace/testing';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inThisThread, runScorer } from './run-scorer';
import type { MediaAccess, ScoreInput, ScorerDeps, ScorerSpec } from './scorer.types';
import { ScorerError } from './scorer-error';
import { validateScorers } from './validate-scorers';

jest.setTimeout(60_000);

function spec(raw: object): ScorerSpec {
  const result = validateScorers([raw]);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scorers[0];
}
const errorPaths = (raw: object) => {
  const result = validateScorers([raw]);
  return result.ok ? [] : result.errors.map((e) => e.path);
};

describe('video scorers: their configs', () => {
  it('accepts each as API.md shows it', () => {
    expect(
      validateScorers([
        {
          type: 'video_conformance',
          config: { field: 'video', expected: { width: 320, height: 240, fps: 24, durationMs: 2000, toleranceMs: 50, hasAudio: false, codec: 'h264' } },
        },
        {
          type: 'video_qa',
          config: {
            checks: ['black', 'freeze', 'flicker', 'blur', 'silence', 'loudness', 'flashes'],
            thresholds: { black: { minDurationMs: 200 }, loudness: { minLufs: -30, maxLufs: -10 } },
          },
        },
        { type: 'video_similarity', config: { method: 'ssim', reference: 'expected' } },
        { name: 'vs-run', type: 'video_similarity', config: { method: 'signature', reference: { runId: 'run_01jh8z6v9q3m2r7x5c4b1n0k8d' } } },
      ]).ok,
    ).toBe(true);
  });

  it('names every unknown check, method, threshold and spec field', () => {
    expect(errorPaths({ type: 'video_qa', config: { checks: ['black', 'banding', 'black'], thresholds: { black: { minDurationMs: -1, pixels: 1 }, noise: {} } } })).toEqual([
      'scorers[0].config.checks[1]',
      'scorers[0].config.checks[2]',
      'scorers[0].config.thresholds.black.minDurationMs',
      'scorers[0].config.thresholds.black.pixels',
      'scorers[0].config.thresholds.noise',
    ]);
    expect(errorPaths({ type: 'video_qa', config: { checks: [] } })).toEqual(['scorers[0].config.checks']);
    expect(errorPaths({ type: 'video_qa', config: { checks: ['loudness'], thresholds: { loudness: { minLufs: -10, maxLufs: -20 } } } })).toEqual([
      'scorers[0].config.thresholds.loudness.maxLufs',
    ]);
    expect(errorPaths({ type: 'video_similarity', config: { method: 'vmaf', reference: { runId: 'bm_1' } } })).toEqual([
      'scorers[0].config.method',
      'scorers[0].config.reference.runId',
    ]);
    expect(errorPaths({ type: 'video_similarity', config: { reference: 'previous' } })).toEqual(['scorers[0].config.method', 'scorers[0].config.reference']);
    expect(errorPaths({ type: 'video_conformance', config: { expected: { width: 0, fps: 'x', aspect: '4:3', codec: 'h 264' } } })).toEqual([
      'scorers[0].config.expected.width',
      'scorers[0].config.expected.fps',
      'scorers[0].config.expected.aspect',
      'scorers[0].config.expected.codec',
    ]);
  });
});

describe('video scorers: scoring real clips (system ffmpeg)', () => {
  const ffmpeg = resolveMediaTool('ffmpeg', {});
  const ffprobe = resolveMediaTool('ffprobe', {});
  let dir: string;
  const clips: Record<string, string> = {};
  /** Opens `{ clip }` references as copies of the clips, as the worker opens media as temporary files. */
  const opened: string[] = [];
  const media: MediaAccess = {
    open: async (reference) => {
      const name = (reference as { clip?: string } | null)?.clip;
      if (!name || !clips[name]) throw new ScorerError('no such clip');
      const path = join(dir, `opened-${opened.length}.mp4`);
      copyFileSync(clips[name], path);
      opened.push(path);
      const outcome = await probeMedia(ffprobe, path);
      if (!outcome.ok) throw new ScorerError(outcome.reason);
      return { path, probe: outcome.probe, release: async () => rmSync(path, { force: true }) };
    },
    outputInRun: async (runId) => {
      if (runId !== 'run_01jh8z6v9q3m2r7x5c4b1n0k8d') throw new ScorerError(`no run ${runId}`);
      return { video: { clip: 'source' } };
    },
    ffmpeg: () => ffmpeg,
  };
  const deps: ScorerDeps = {
    local: inThisThread,
    postJson: () => Promise.reject(new Error('no network')),
    secretValue: () => Promise.reject(new Error('no secrets')),
    timeoutMs: 60_000,
    media,
  };
  const item = (over: Partial<ScoreInput>): ScoreInput => ({ input: null, expected: null, output: null, metadata: null, ...over });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'video-scorers-'));
    clips.source = makeClip(dir, 'source.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']);
    clips.low = makeClip(dir, 'low.mp4', ['-i', clips.source], ['-c:v', 'libx264', '-crf', '45', '-pix_fmt', 'yuv420p']);
    clips.black = makeClip(dir, 'black.mp4', lavfi('testsrc=size=320x240:rate=24:duration=1', 'color=black:size=320x240:rate=24:duration=1'), [
      '-filter_complex',
      '[0:v][1:v]concat=n=2:v=1:a=0[v]',
      '-map',
      '[v]',
      '-pix_fmt',
      'yuv420p',
    ]);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('video_conformance: 1 when the probe matches the item’s spec, the share that matches otherwise', async () => {
    const conformance = spec({ type: 'video_conformance', config: { field: 'video' } });
    const output = { video: { clip: 'source' } };
    const matched = await runScorer(conformance, item({ output, expected: { width: 320, height: 240, fps: 24, durationMs: 2000, reference: { clip: 'source' } } }), deps);
    expect(matched).toMatchObject({ score: 1, passed: true, error: null, details: { mismatches: [] } });
    const wrongFps = await runScorer(spec({ type: 'video_conformance', config: { field: 'video', expected: { fps: 30, width: 320 } } }), item({ output }), deps);
    expect(wrongFps).toMatchObject({ score: 0.5, passed: false, details: { mismatches: [{ field: 'fps', expected: 30, actual: 24 }] } });
  });

  it('video_qa: 1 minus the share of the duration with findings', async () => {
    const result = await runScorer(spec({ type: 'video_qa', config: { checks: ['black'] } }), item({ output: { clip: 'black' } }), deps);
    expect(result.error).toBeNull();
    const { findings } = result.details as { findings: Array<{ startMs: number; endMs: number }> };
    expect(findings).toHaveLength(1);
    expect(result.score).toBeCloseTo(1 - (findings[0].endMs - findings[0].startMs) / 2000, 3);
    expect(result.score).toBeCloseTo(0.5, 1);
    expect(result.passed).toBe(true); // 0.5 is the graded scorers' default threshold
  });

  it('video_similarity: against the expected media, or the same item’s output in another run', async () => {
    const ssim = await runScorer(
      spec({ type: 'video_similarity', config: { field: 'video', method: 'ssim' } }),
      item({ output: { video: { clip: 'low' } }, expected: { video: { clip: 'source' } } }),
      deps,
    );
    expect(ssim.score).toBeGreaterThan(0.5);
    expect(ssim.score).toBeLessThan(1);
    expect(ssim.details).toMatchObject({ method: 'ssim', frames: 48, reference: 'expected' });
    const vsRun = spec({ type: 'video_similarity', config: { field: 'video', method: 'psnr', reference: { runId: 'run_01jh8z6v9q3m2r7x5c4b1n0k8d' } } });
    expect((await runScorer(vsRun, item({ output: { video: { clip: 'source' } } }), deps)).score).toBe(1);
  });

  it('gives the score an error (never a crash) for a missing reference, and removes every opened file', async () => {
    const missing = await runScorer(spec({ type: 'video_similarity', config: { method: 'ssim' } }), item({ output: { clip: 'source' }, expected: { clip: 'nope' } }), deps);
    expect(missing).toMatchObject({ score: null, passed: null, error: 'no such clip' });
    const noField = await runScorer(spec({ type: 'video_qa', config: { field: 'video', checks: ['black'] } }), item({ output: { caption: 'x' } }), deps);
    expect(noField.error).toBe("the output has no field 'video'");
    const elsewhere = await runScorer(spec({ type: 'video_qa', config: { checks: ['black'] } }), item({ output: { clip: 'source' } }), { ...deps, media: undefined });
    expect(elsewhere.error).toBe('video scorers cannot run in this process');
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.filter((path) => existsSync(path))).toEqual([]);
  });
});
