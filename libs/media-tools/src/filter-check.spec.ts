import { expect } from '@jest/globals';
import { assessFilters, checkFilters, describeFilterReport, FILTER_NEEDS, parseFilterList } from './filter-check';
import { resolveMediaTool } from './media-tool-paths';

const SAMPLE = `Filters:
  T.. = Timeline support
  --- blackdetect? no: this is the legend
 .S. blackdetect       V->V       Detect video intervals that are (almost) black.
 TS. ssim              VV->V      Calculate the SSIM between two video streams.
 ... select            V->N       Select video frames to pass in output.
 ... abuffer           |->A       Buffer audio frames, and make them accessible to the filterchain.
`;

describe('the filter check', () => {
  it('reads the filter names of `ffmpeg -filters`, not its legend', () => {
    expect([...parseFilterList(SAMPLE)].sort()).toEqual(['abuffer', 'blackdetect', 'select', 'ssim']);
  });

  it('names each missing need with what it serves, and a fallback filter as such', () => {
    const { missing, fallbacks } = assessFilters(parseFilterList(SAMPLE));
    expect(missing.map((need) => need.anyOf[0])).toEqual([
      'freezedetect',
      'tblend',
      'signalstats',
      'blurdetect',
      'silencedetect',
      'ebur128',
      'metadata',
      'ametadata',
      'psnr',
      'signature',
    ]);
    expect(fallbacks.map((f) => [f.need.use, f.filter])).toEqual([['storyboard scene cuts', 'select']]);
  });

  it("finds every filter in the system's ffmpeg (Debian's 5.1, which .ci/run installs)", async () => {
    const report = await checkFilters(resolveMediaTool('ffmpeg', {}));
    expect(report.ffmpeg.source).toBe('system');
    expect(report.missing).toEqual([]);
    expect(report.fallbacks).toEqual([]);
    expect(describeFilterReport(report)).toEqual({ level: 'log', message: expect.stringMatching(/^Media: ffmpeg version \S+ at \/\S+ \(from the system PATH\) has every filter/) });
  });

  // The linux-x64 package's build (CI's): a 2018 snapshot (docs/deploy.md, "ffmpeg and ffprobe").
  it("says in plain words what the npm package's older ffmpeg lacks", async () => {
    const report = await checkFilters(resolveMediaTool('ffmpeg', {}, ''));
    expect(report.missing.map((need) => need.anyOf[0])).toEqual(['blurdetect']);
    expect(report.fallbacks.map((f) => f.filter)).toEqual(['select']);
    const { level, message } = describeFilterReport(report);
    expect(level).toBe('warn');
    expect(message).toContain('lacks the filters blurdetect (video_qa "blur"):');
    expect(message).toContain('storyboard scene cuts uses the select filter (scdet is missing)');
    expect(message).toContain('FFMPEG_PATH');
  });

  it('covers every filter the issue lists', () => {
    expect(FILTER_NEEDS.flatMap((need) => need.anyOf).sort()).toEqual(
      [
        'ametadata',
        'blackdetect',
        'blurdetect',
        'ebur128',
        'freezedetect',
        'metadata',
        'psnr',
        'scdet',
        'select',
        'signalstats',
        'signature',
        'silencedetect',
        'ssim',
        'tblend',
      ].sort(),
    );
  });
});
