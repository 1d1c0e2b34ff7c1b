import type { MediaTool } from './media-tool-paths';
import { describeMediaTool } from './media-tool-paths';
import { runMediaTool } from './run-media-tool';

/** One thing the media features need from ffmpeg, and the filters that can do it (the first is preferred). */
export interface FilterNeed {
  use: string;
  anyOf: readonly string[];
}

/** What the video scorers, frames and storyboards run on (docs/api-reference.md, Media). */
export const FILTER_NEEDS: readonly FilterNeed[] = [
  { use: 'video_qa "black"', anyOf: ['blackdetect'] },
  { use: 'video_qa "freeze"', anyOf: ['freezedetect'] },
  { use: 'video_qa "flicker"', anyOf: ['tblend'] },
  { use: 'video_qa "flicker" and "flashes"', anyOf: ['signalstats'] },
  { use: 'video_qa "blur"', anyOf: ['blurdetect'] },
  { use: 'video_qa "silence"', anyOf: ['silencedetect'] },
  { use: 'video_qa "loudness"', anyOf: ['ebur128'] },
  { use: 'video_qa findings', anyOf: ['metadata'] },
  { use: 'video_qa audio findings', anyOf: ['ametadata'] },
  { use: 'storyboard scene cuts', anyOf: ['scdet', 'select'] },
  { use: 'video_similarity "ssim"', anyOf: ['ssim'] },
  { use: 'video_similarity "psnr"', anyOf: ['psnr'] },
  { use: 'video_similarity "signature"', anyOf: ['signature'] },
];

export interface FilterReport {
  ffmpeg: MediaTool;
  /** The first line of `ffmpeg -version`, e.g. "ffmpeg version 5.1.9-0+deb12u1". */
  version: string;
  /** Needs met only by a fallback filter (scene cuts by `select` without `scdet`). */
  fallbacks: { need: FilterNeed; filter: string }[];
  /** Needs no filter of this ffmpeg meets: those features are unavailable. */
  missing: FilterNeed[];
}

/** The filter names `ffmpeg -filters` lists (lines like " TS. ssim  VV->V  Calculate the SSIM …"). */
export function parseFilterList(output: string): Set<string> {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    const match = /^ [A-Z.|]{2,3} (\S+)\s+\S+->\S+/.exec(line);
    if (match) names.add(match[1]);
  }
  return names;
}

/** Which of FILTER_NEEDS a set of filters meets, and how. */
export function assessFilters(available: ReadonlySet<string>): Pick<FilterReport, 'fallbacks' | 'missing'> {
  const fallbacks: FilterReport['fallbacks'] = [];
  const missing: FilterNeed[] = [];
  for (const need of FILTER_NEEDS) {
    const found = need.anyOf.find((filter) => available.has(filter));
    if (!found) missing.push(need);
    else if (found !== need.anyOf[0]) fallbacks.push({ need, filter: found });
  }
  return { fallbacks, missing };
}

const RUN_LIMITS = { timeoutMs: 15_000, maxOutputBytes: 1024 * 1024 };

/** Asks the binary itself: its version and its filters. */
export async function checkFilters(ffmpeg: MediaTool): Promise<FilterReport> {
  const [versionRun, filtersRun] = await Promise.all([
    runMediaTool(ffmpeg.path, ['-hide_banner', '-version'], RUN_LIMITS),
    runMediaTool(ffmpeg.path, ['-hide_banner', '-filters'], RUN_LIMITS),
  ]);
  if (filtersRun.exitCode !== 0) throw new Error(`${ffmpeg.path} -filters exited with ${filtersRun.exitCode}: ${filtersRun.stderr.trim().split('\n').pop() ?? ''}`);
  const version = versionRun.stdout.toString('utf8').split(' ').slice(0, 3).join(' ').trim();
  return { ffmpeg, version, ...assessFilters(parseFilterList(filtersRun.stdout.toString('utf8'))) };
}

/** The boot log line: which ffmpeg, and in plain words what is missing and how to get it. */
export function describeFilterReport(report: FilterReport): { level: 'log' | 'warn'; message: string } {
  const which = `${report.version || 'ffmpeg'} at ${describeMediaTool(report.ffmpeg)}`;
  const fallbacks = report.fallbacks.map(({ need, filter }) => ` ${need.use} uses the ${filter} filter (${need.anyOf[0]} is missing).`).join('');
  if (report.missing.length === 0) return { level: 'log', message: `Media: ${which} has every filter the video features use.${fallbacks}` };
  const missing = report.missing.map((need) => `${need.anyOf.join(' or ')} (${need.use})`).join(', ');
  return {
    level: 'warn',
    message:
      `Media: ${which} lacks the filters ${missing}: what they serve cannot run with this ffmpeg.${fallbacks} ` +
      'Install a newer ffmpeg (5.1 or later: Debian/Ubuntu apt-get install ffmpeg) or point FFMPEG_PATH at one.',
  };
}
