import { fileInput, ffmpegFailure, QUIET, runBoundedFfmpeg, SINGLE_THREAD, type AnalysisLimits } from './bounded-ffmpeg';
import type { MediaTool } from './media-tool-paths';
import { MediaAnalysisError, runFailure } from './media-analysis-error';

/** How video_similarity compares (API.md, Benchmarks). Stored in benchmarks' configs: never rename one. */
export const SIMILARITY_METHODS = ['ssim', 'psnr', 'signature'] as const;
export type SimilarityMethod = (typeof SIMILARITY_METHODS)[number];

/** A media to compare, with what its probe said. */
export interface ComparedMedia {
  path: string;
  width: number | null;
  height: number | null;
  fps: number | null;
  durationMs: number | null;
}

/**
 * A comparison's outcome: `score` in 0..1 and the method's own measure (`value`): the mean SSIM,
 * the PSNR in dB (null when the frames are identical: infinite), or the frames the MPEG-7
 * signatures matched. `frames` is how many frame pairs were compared (signature: of the shorter).
 */
export interface Similarity {
  method: SimilarityMethod;
  score: number;
  value: number | null;
  frames: number;
}

/** PSNR at or above this many dB scores 1 (visually lossless for 8-bit video); below, it scales linearly. */
export const PSNR_FULL_SCORE_DB = 50;
/** When the reference says no frame rate (a still image), both are compared at this rate. */
const FALLBACK_FPS = 25;

/**
 * Compares `output` with `reference` in one ffmpeg process: both scaled to the reference's size
 * and frame rate (so a different resolution or rate is compared picture for picture), then
 * ffmpeg's `ssim`, `psnr` or `signature` filter. Pairs stop at the shorter of the two.
 */
export async function compareVideo(ffmpeg: MediaTool, output: ComparedMedia, reference: ComparedMedia, method: SimilarityMethod, limits: AnalysisLimits): Promise<Similarity> {
  for (const [media, which] of [
    [output, 'output'],
    [reference, 'reference'],
  ] as const) {
    if (!media.width || !media.height) throw new MediaAnalysisError(`the ${which} media has no video stream to compare`);
  }
  const fps = reference.fps ?? FALLBACK_FPS;
  const normalise = `scale=${reference.width}:${reference.height}:flags=bicubic,setsar=1,fps=${fps},format=yuv420p`;
  const compare = {
    ssim: 'ssim=stats_file=-:shortest=1',
    psnr: 'psnr=stats_file=-:shortest=1',
    signature: 'signature=nb_inputs=2:detectmode=full',
  }[method];
  // The compared stream goes to the null muxer: it is what drives the comparison.
  const graph = `[0:v:0]${normalise}[a];[1:v:0]${normalise}[b];[a][b]${compare}`;
  // signature reports its match on standard error, at the info level; ssim and psnr print each frame to standard output.
  const level = method === 'signature' ? 'info' : 'error';
  const args = [...QUIET, '-v', level, ...SINGLE_THREAD, ...fileInput(output.path), ...fileInput(reference.path), '-filter_complex', graph, '-f', 'null', '-'];
  const result = await runBoundedFfmpeg(ffmpeg, args, limits).catch((err: unknown) => {
    throw runFailure(err, 'the comparison');
  });
  if (result.exitCode !== 0) throw new MediaAnalysisError(`ffmpeg could not compare the media: ${ffmpegFailure(result)}`);
  const stdout = result.stdout.toString('utf8');
  if (method === 'ssim') return ssimOf(stdout);
  if (method === 'psnr') return psnrOf(stdout);
  return signatureOf(result.stderr, shorterFrames(output, reference, fps));
}

/** Mean of the per-frame `All:` SSIM values (`n:1 Y:0.92 U:0.97 V:0.97 All:0.94 (12.3)`). */
export function ssimOf(stats: string): Similarity {
  const values = [...stats.matchAll(/\bAll:([\d.]+)/g)].map((m) => Number(m[1])).filter(Number.isFinite);
  if (values.length === 0) throw new MediaAnalysisError('no frames could be compared');
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return { method: 'ssim', score: clamp01(mean), value: round(mean, 4), frames: values.length };
}

/**
 * The PSNR of the whole comparison, from the mean of the per-frame mean squared errors
 * (`mse_avg:46.35`): 10·log10(255² / mse). Score min(1, PSNR / 50); identical frames score 1.
 */
export function psnrOf(stats: string): Similarity {
  const errors = [...stats.matchAll(/\bmse_avg:([\d.]+)/g)].map((m) => Number(m[1])).filter(Number.isFinite);
  if (errors.length === 0) throw new MediaAnalysisError('no frames could be compared');
  const mse = errors.reduce((sum, v) => sum + v, 0) / errors.length;
  if (mse === 0) return { method: 'psnr', score: 1, value: null, frames: errors.length };
  const psnr = 10 * Math.log10((255 * 255) / mse);
  return { method: 'psnr', score: clamp01(psnr / PSNR_FULL_SCORE_DB), value: round(psnr, 2), frames: errors.length };
}

/**
 * What the signature filter logged: "matching of video 0 at 1.2 and 1 at 1.25, 47 frames
 * matching" (and "whole video matching"), or "no matching of video 0 and 1". Score: the
 * matched frames as a share of the shorter media's frames; 0 without a match.
 */
export function signatureOf(log: string, shorter: number): Similarity {
  const matched = /(\d+) frames matching/.exec(log);
  if (matched) {
    const frames = Number(matched[1]);
    return { method: 'signature', score: clamp01(shorter > 0 ? frames / shorter : 1), value: frames, frames: shorter };
  }
  if (/no matching of video/.test(log)) return { method: 'signature', score: 0, value: 0, frames: shorter };
  throw new MediaAnalysisError('the signature comparison gave no result');
}

function shorterFrames(a: ComparedMedia, b: ComparedMedia, fps: number): number {
  const ms = Math.min(a.durationMs ?? Infinity, b.durationMs ?? Infinity);
  return Number.isFinite(ms) ? Math.max(1, Math.round((ms / 1000) * fps)) : 0;
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
