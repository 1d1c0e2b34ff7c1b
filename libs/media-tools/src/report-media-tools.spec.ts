import { expect } from '@jest/globals';
import { reportMediaTools } from './report-media-tools';

describe('reportMediaTools', () => {
  const capture = () => {
    const lines: [string, string][] = [];
    return { lines, log: { log: (m: string) => lines.push(['log', m]), warn: (m: string) => lines.push(['warn', m]) } };
  };

  it('logs one line naming both binaries when every filter is there', async () => {
    const { lines, log } = capture();
    await reportMediaTools(log, {});
    expect(lines).toEqual([['log', expect.stringMatching(/^Media: ffmpeg version .* has every filter .* ffprobe: \/\S+ \(from the system PATH\)\.$/)]]);
  });

  it('warns, without throwing, when a configured binary is not there', async () => {
    const { lines, log } = capture();
    await reportMediaTools(log, { FFMPEG_PATH: '/nonexistent/ffmpeg' }, '');
    expect(lines).toEqual([
      ['warn', 'Media: FFMPEG_PATH names /nonexistent/ffmpeg, which is not an executable file. Probing, frames and the video scorers cannot run until ffmpeg is found.'],
    ]);
  });
});
