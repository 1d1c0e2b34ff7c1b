import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileInput, ffmpegFailure, QUIET, runBoundedFfmpeg, SINGLE_THREAD, type AnalysisLimits } from './bounded-ffmpeg';
import { flashingRanges, luminanceTransitions } from './flash-count';
import { numericTag, readFrameTags, type FrameTags } from './frame-metadata';
import type { MediaTool } from './media-tool-paths';
import { MediaAnalysisError, runFailure } from './media-analysis-error';
import { runsWhere, type TimedValue, type TimeRange } from './time-ranges';

/** The checks video_qa runs (API.md, Benchmarks). Stored in benchmarks' configs: never rename one. */
export const VIDEO_QA_CHECKS = ['black', 'freeze', 'flicker', 'blur', 'silence', 'loudness', 'flashes'] as const;
export type VideoQaCheck = (typeof VIDEO_QA_CHECKS)[number];
export const AUDIO_CHECKS: readonly VideoQaCheck[] = ['silence', 'loudness'];

/** Each check's settings; every one has a default (QA_DEFAULTS), documented in docs/api-reference.md. */
export interface QaThresholds {
  /** blackdetect: a frame is black when this fraction of its pixels is below pixelThreshold (0..1 of the luma range). */
  black: { minDurationMs: number; pixelThreshold: number; pictureThreshold: number };
  /** freezedetect: frames that differ by less than noiseDb for at least minDurationMs. */
  freeze: { minDurationMs: number; noiseDb: number };
  /** Mean absolute luma difference of consecutive frames (0..255), averaged over the last windowMs, above maxMeanDiff (a lone cut is not flicker). */
  flicker: { maxMeanDiff: number; windowMs: number };
  /** blurdetect's per-frame blur above max for at least minDurationMs (a sharp test pattern measures ~5, a 4-pixel box blur ~15). */
  blur: { max: number; minDurationMs: number };
  /** silencedetect: audio below noiseDb for at least minDurationMs. */
  silence: { minDurationMs: number; noiseDb: number };
  /** ebur128: the integrated loudness (LUFS) outside minLufs..maxLufs. */
  loudness: { minLufs: number; maxLufs: number };
  /** WCAG 2.3.1: more than maxPerSecond flashes within a second. */
  flashes: { maxPerSecond: number };
}

export const QA_DEFAULTS: QaThresholds = {
  black: { minDurationMs: 500, pixelThreshold: 0.1, pictureThreshold: 0.98 },
  freeze: { minDurationMs: 1000, noiseDb: -60 },
  flicker: { maxMeanDiff: 30, windowMs: 500 },
  blur: { max: 12, minDurationMs: 500 },
  silence: { minDurationMs: 1000, noiseDb: -50 },
  loudness: { minLufs: -24, maxLufs: -14 },
  flashes: { maxPerSecond: 3 },
};

export type QaThresholdOverrides = { [C in VideoQaCheck]?: Partial<QaThresholds[C]> };

/** A stretch of the media where a check found something; `value` is the check's measure there (docs/api-reference.md). */
export interface QaFinding {
  check: VideoQaCheck;
  startMs: number;
  endMs: number;
  value: number | null;
}

/** Whole-media measures beside the findings. */
export interface QaMeasures {
  /** VBench's temporal flicker: (255 − mean absolute difference of consecutive frames) / 255, and that mean. */
  flicker?: { score: number; meanDiff: number };
  /** Integrated loudness (LUFS); null when the media has no audio. */
  loudness?: { integratedLufs: number | null };
  /** The mean of blurdetect's per-frame blur. */
  blur?: { mean: number | null };
}

export interface VideoAnalysis {
  findings: QaFinding[];
  measures: QaMeasures;
}

/** What the probe said of the media: the analysis needs its length and which streams it has. */
export interface AnalysedMedia {
  path: string;
  durationMs: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

const MAX_STATS_BYTES = 64 * 1024 * 1024;
/** The temporary directory's path is spliced into the filter graph: nothing in it may need escaping. */
const SAFE_PATH = /^[A-Za-z0-9_/.-]+$/;

/** One branch of the graph: its filters, and the metadata file it prints to (the filter graph names it). */
interface Branch {
  check: VideoQaCheck;
  filters: (file: string) => string;
}

/**
 * Runs the checks on a media in ONE ffmpeg process (one decode): the video stream split into a
 * branch per video check, the audio into one per audio check, each branch printing its frames'
 * metadata to its own file in a temporary directory (removed afterwards). Audio checks on a
 * media without audio find the whole media silent (and its loudness null).
 */
export async function analyseVideo(
  ffmpeg: MediaTool,
  media: AnalysedMedia,
  checks: readonly VideoQaCheck[],
  overrides: QaThresholdOverrides,
  limits: AnalysisLimits,
): Promise<VideoAnalysis> {
  const thresholds = withDefaults(overrides);
  const videoChecks = checks.filter((check) => !AUDIO_CHECKS.includes(check));
  if (videoChecks.length > 0 && !media.hasVideo) throw new MediaAnalysisError(`the media has no video stream for ${videoChecks.join(', ')}`);

  const dir = await mkdtemp(join(tmpdir(), 'cinetrace-qa-'));
  try {
    const args = videoQaArgs(media, checks, overrides, dir);
    if (args.length > 0) {
      const result = await runBoundedFfmpeg(ffmpeg, args, limits).catch((err: unknown) => {
        throw runFailure(err, 'the analysis');
      });
      if (result.exitCode !== 0) throw new MediaAnalysisError(`ffmpeg could not analyse the media: ${ffmpegFailure(result)}`);
    }
    const analysis: VideoAnalysis = { findings: [], measures: {} };
    for (const check of checks) {
      const frames = AUDIO_CHECKS.includes(check) && !media.hasAudio ? [] : await readFrameTags(statsFile(dir, check), MAX_STATS_BYTES);
      READERS[check](frames, thresholds, media, analysis);
    }
    analysis.findings.sort((a, b) => a.startMs - b.startMs || a.check.localeCompare(b.check));
    return analysis;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The ffmpeg arguments of the checks' one pass over `media.path` (what analyseVideo runs, and
 * bench/media.js runs bare beside it): each branch prints its frames' metadata to a file in
 * `dir`. Empty when there is nothing to decode (only audio checks on a media without audio).
 */
export function videoQaArgs(media: Pick<AnalysedMedia, 'path' | 'hasAudio'>, checks: readonly VideoQaCheck[], overrides: QaThresholdOverrides, dir: string): string[] {
  if (!SAFE_PATH.test(dir)) throw new Error(`the temporary directory ${dir} has characters a filter graph cannot take`);
  const thresholds = withDefaults(overrides);
  const videoChecks = checks.filter((check) => !AUDIO_CHECKS.includes(check));
  const audioChecks = media.hasAudio ? checks.filter((check) => AUDIO_CHECKS.includes(check)) : [];
  const file = (check: VideoQaCheck) => statsFile(dir, check);
  const graph = [
    ...splitInto('[0:v:0]', 'split', 'v', videoBranches(videoChecks, thresholds), file, 'nullsink'),
    ...splitInto('[0:a:0]', 'asplit', 'a', audioBranches(audioChecks, thresholds), file, 'anullsink'),
  ];
  if (graph.length === 0) return [];
  // ffmpeg 7 refuses a graph whose every branch ends in a sink ("zero outputs"): the last one feeds the null muxer instead.
  graph[graph.length - 1] = graph[graph.length - 1].replace(/,a?nullsink$/, '');
  return [...QUIET, '-v', 'error', ...SINGLE_THREAD, ...fileInput(media.path), '-filter_complex', graph.join(';'), '-f', 'null', '-'];
}

const statsFile = (dir: string, check: VideoQaCheck) => join(dir, `${check}.txt`);

function withDefaults(overrides: QaThresholdOverrides): QaThresholds {
  const merged = { ...QA_DEFAULTS } as Record<VideoQaCheck, object>;
  for (const check of VIDEO_QA_CHECKS) merged[check] = { ...QA_DEFAULTS[check], ...(overrides[check] ?? {}) };
  return merged as QaThresholds;
}

/** `[in]split=N[v0][v1]…;[v0]<filters>,nullsink;…` for the branches (no split for one). */
function splitInto(input: string, split: string, label: string, branches: Branch[], file: (check: VideoQaCheck) => string, sink: string): string[] {
  if (branches.length === 0) return [];
  const labels = branches.map((_, i) => `[${label}${i}]`);
  const head = branches.length === 1 ? [] : [`${input}${split}=${branches.length}${labels.join('')}`];
  const inputs = branches.length === 1 ? [input] : labels;
  return [...head, ...branches.map((branch, i) => `${inputs[i]}${branch.filters(file(branch.check))},${sink}`)];
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const print = (file: string, key?: string) => `metadata=mode=print${key ? `:key=${key}` : ''}:file=${file}`;
const aprint = (file: string, key?: string) => `ametadata=mode=print${key ? `:key=${key}` : ''}:file=${file}`;

function videoBranches(checks: readonly VideoQaCheck[], t: QaThresholds): Branch[] {
  const filters: Partial<Record<VideoQaCheck, (file: string) => string>> = {
    black: (file) => `blackdetect=d=${seconds(t.black.minDurationMs)}:pix_th=${t.black.pixelThreshold}:pic_th=${t.black.pictureThreshold},${print(file)}`,
    freeze: (file) => `freezedetect=n=${t.freeze.noiseDb}dB:d=${seconds(t.freeze.minDurationMs)},${print(file)}`,
    // The difference of each frame with the one before: its mean luma is the mean absolute difference.
    flicker: (file) => `tblend=all_mode=difference,signalstats,${print(file, 'lavfi.signalstats.YAVG')}`,
    blur: (file) => `blurdetect,${print(file, 'lavfi.blur')}`,
    flashes: (file) => `signalstats,${print(file, 'lavfi.signalstats.YAVG')}`,
  };
  return checks.map((check) => ({ check, filters: filters[check]! }));
}

function audioBranches(checks: readonly VideoQaCheck[], t: QaThresholds): Branch[] {
  const filters: Partial<Record<VideoQaCheck, (file: string) => string>> = {
    silence: (file) => `silencedetect=n=${t.silence.noiseDb}dB:d=${seconds(t.silence.minDurationMs)},${aprint(file)}`,
    loudness: (file) => `ebur128=metadata=1,${aprint(file, 'lavfi.r128.I')}`,
  };
  return checks.map((check) => ({ check, filters: filters[check]! }));
}

type Reader = (frames: FrameTags[], t: QaThresholds, media: AnalysedMedia, into: VideoAnalysis) => void;

/**
 * Pairs the start and end marks a detector sets (`lavfi.black_start` … `lavfi.black_end`); a
 * stretch still open at the end of the media ends with it.
 */
function markedRanges(frames: FrameTags[], startKey: string, endKey: string, durationMs: number): TimeRange[] {
  const ranges: TimeRange[] = [];
  let start: number | undefined;
  for (const frame of frames) {
    const startsAt = numericTag(frame, startKey);
    const endsAt = numericTag(frame, endKey);
    if (startsAt !== undefined && start === undefined) start = Math.round(startsAt * 1000);
    if (endsAt !== undefined && start !== undefined) {
      ranges.push({ startMs: start, endMs: Math.round(endsAt * 1000) });
      start = undefined;
    }
  }
  if (start !== undefined && durationMs > start) ranges.push({ startMs: start, endMs: durationMs });
  return ranges;
}

const durationValue = (range: TimeRange) => Math.round(range.endMs - range.startMs) / 1000;

function series(frames: FrameTags[], key: string): TimedValue[] {
  const values: TimedValue[] = [];
  for (const frame of frames) {
    const value = numericTag(frame, key);
    if (value !== undefined) values.push({ time: frame.time, value });
  }
  return values;
}

/** Each sample replaced by the mean of the samples within `windowMs` before it (itself included). */
function movingMean(values: TimedValue[], windowMs: number): TimedValue[] {
  let first = 0;
  let sum = 0;
  return values.map((sample, i) => {
    sum += sample.value;
    while (values[first].time < sample.time - windowMs / 1000) sum -= values[first++].value;
    return { time: sample.time, value: sum / (i - first + 1) };
  });
}

const mean = (values: TimedValue[]) => (values.length === 0 ? null : values.reduce((sum, v) => sum + v.value, 0) / values.length);
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

const READERS: Record<VideoQaCheck, Reader> = {
  black: (frames, _, media, into) => {
    for (const range of markedRanges(frames, 'lavfi.black_start', 'lavfi.black_end', media.durationMs))
      into.findings.push({ check: 'black', ...range, value: durationValue(range) });
  },
  freeze: (frames, _, media, into) => {
    const ranges = markedRanges(frames, 'lavfi.freezedetect.freeze_start', 'lavfi.freezedetect.freeze_end', media.durationMs);
    for (const range of ranges) into.findings.push({ check: 'freeze', ...range, value: durationValue(range) });
  },
  flicker: (frames, t, media, into) => {
    const diffs = series(frames, 'lavfi.signalstats.YAVG');
    const meanDiff = mean(diffs) ?? 0;
    into.measures.flicker = { score: round((255 - meanDiff) / 255, 4), meanDiff: round(meanDiff) };
    for (const run of runsWhere(movingMean(diffs, t.flicker.windowMs), (diff) => diff > t.flicker.maxMeanDiff, 0, media.durationMs)) {
      into.findings.push({ check: 'flicker', startMs: run.startMs, endMs: run.endMs, value: round(run.mean) });
    }
  },
  blur: (frames, t, media, into) => {
    const blur = series(frames, 'lavfi.blur');
    const overall = mean(blur);
    into.measures.blur = { mean: overall === null ? null : round(overall) };
    for (const run of runsWhere(blur, (value) => value > t.blur.max, t.blur.minDurationMs, media.durationMs)) {
      into.findings.push({ check: 'blur', startMs: run.startMs, endMs: run.endMs, value: round(run.mean) });
    }
  },
  silence: (frames, _, media, into) => {
    const ranges = media.hasAudio ? markedRanges(frames, 'lavfi.silence_start', 'lavfi.silence_end', media.durationMs) : [{ startMs: 0, endMs: media.durationMs }];
    for (const range of ranges) into.findings.push({ check: 'silence', ...range, value: durationValue(range) });
  },
  loudness: (frames, t, media, into) => {
    const integrated = series(frames, 'lavfi.r128.I').pop()?.value ?? null;
    into.measures.loudness = { integratedLufs: integrated === null ? null : round(integrated, 1) };
    if (integrated === null || integrated < t.loudness.minLufs || integrated > t.loudness.maxLufs) {
      into.findings.push({ check: 'loudness', startMs: 0, endMs: media.durationMs, value: integrated === null ? null : round(integrated, 1) });
    }
  },
  flashes: (frames, t, _, into) => {
    for (const range of flashingRanges(luminanceTransitions(series(frames, 'lavfi.signalstats.YAVG')), t.flashes.maxPerSecond)) {
      into.findings.push({ check: 'flashes', startMs: range.startMs, endMs: range.endMs, value: range.flashesPerSecond });
    }
  },
};
