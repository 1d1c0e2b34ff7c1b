import { expect } from '@jest/globals';
import { lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkConformance } from './check-conformance';
import { resolveMediaTool } from './media-tool-paths';
import { probeMedia, type MediaProbe } from './probe-media';

describe('checkConformance (video_conformance)', () => {
  let probe: MediaProbe;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
    try {
      const path = makeClip(dir, 'clip.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']);
      const outcome = await probeMedia(resolveMediaTool('ffprobe', {}), path);
      if (!outcome.ok) throw new Error(outcome.reason);
      probe = outcome.probe;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('matches a 2 s 320×240 24 fps h264 clip without audio against its spec', () => {
    expect(checkConformance(probe, { width: 320, height: 240, fps: 24, durationMs: 2000, hasAudio: false, codec: 'avc1' })).toEqual({
      score: 1,
      checked: ['width', 'height', 'fps', 'durationMs', 'hasAudio', 'codec'],
      mismatches: [],
    });
  });

  it('names each field that does not match, and scores the share that does', () => {
    expect(checkConformance(probe, { width: 320, height: 240, fps: 30, durationMs: 5000, toleranceMs: 100 })).toEqual({
      score: 0.5,
      checked: ['width', 'height', 'fps', 'durationMs'],
      mismatches: [
        { field: 'fps', expected: 30, actual: 24 },
        { field: 'durationMs', expected: 5000, actual: probe.durationMs },
      ],
    });
  });

  it('takes 29.97 fps for 30, and a duration within the tolerance', () => {
    const ntsc = { ...probe, fps: 29.97, durationMs: 2090 };
    expect(checkConformance(ntsc, { fps: 30, durationMs: 2000 }).mismatches).toEqual([]);
    expect(checkConformance(ntsc, { fps: 25, durationMs: 2000, toleranceMs: 50 }).mismatches.map((m) => m.field)).toEqual(['fps', 'durationMs']);
  });
});
