import { expect } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMediaTool, MediaToolMissingError, resolveMediaTool, resolveMediaTools } from './media-tool-paths';

describe('resolveMediaTool', () => {
  let dir: string;
  let fakeFfmpeg: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'media-tools-'));
    fakeFfmpeg = join(dir, 'ffmpeg');
    writeFileSync(fakeFfmpeg, '#!/bin/sh\n');
    chmodSync(fakeFfmpeg, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes FFMPEG_PATH first, over PATH and the npm package', () => {
    expect(resolveMediaTool('ffmpeg', { FFMPEG_PATH: fakeFfmpeg }, '/usr/bin')).toEqual({ name: 'ffmpeg', path: fakeFfmpeg, source: 'environment' });
  });

  it('refuses an FFPROBE_PATH that is not an executable file, naming the variable', () => {
    expect(() => resolveMediaTool('ffprobe', { FFPROBE_PATH: join(dir, 'missing') })).toThrow(MediaToolMissingError);
    expect(() => resolveMediaTool('ffprobe', { FFPROBE_PATH: dir })).toThrow(/FFPROBE_PATH names .* not an executable file/);
  });

  it('takes the one on the system PATH before the npm package', () => {
    expect(resolveMediaTool('ffmpeg', {}, `/nonexistent:${dir}`)).toEqual({ name: 'ffmpeg', path: fakeFfmpeg, source: 'system' });
  });

  it('falls back to the binaries inside the npm packages when PATH has none', () => {
    const tools = resolveMediaTools({}, '');
    expect(tools.ffmpeg).toEqual({ name: 'ffmpeg', path: expect.stringMatching(/node_modules\/@ffmpeg-installer\/[\w-]+\/ffmpeg$/), source: 'npm-package' });
    expect(tools.ffprobe).toEqual({ name: 'ffprobe', path: expect.stringMatching(/node_modules\/@ffprobe-installer\/[\w-]+\/ffprobe$/), source: 'npm-package' });
    expect(describeMediaTool(tools.ffprobe)).toMatch(/\(from the npm package @ffprobe-installer\/ffprobe\)$/);
  });
});
