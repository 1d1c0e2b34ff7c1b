import type { MediaTool } from './media-tool-paths';
import { MediaUnreadableError } from './media-unreadable-error';
import { runMediaTool } from './run-media-tool';

export interface SceneCutOptions {
  /** The scene score (0..1, how much a frame differs from the one before) past which a frame starts a new scene. Default 0.3. */
  threshold?: number;
  timeoutMs: number;
}

/** Frames are compared at this width at most: a cut is as visible at 320 pixels, and comparing is far cheaper. */
const ANALYSIS_WIDTH = 320;
/** One cut is about 60 bytes of output: a run past this (a video cutting at every frame for hours) is killed. */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * The instants (ms, ascending) where a video's scene changes: ffmpeg's `select='gt(scene,t)'`
 * keeps the frames that differ from the one before by more than the threshold and
 * `metadata=print` writes each one's time to standard output. `select` rather than `scdet`,
 * which the npm package's older ffmpeg lacks (filter-check.ts), so both binaries answer alike.
 * It decodes the whole video: in a child process, bounded in time and output.
 */
export async function detectSceneCuts(ffmpeg: MediaTool, path: string, options: SceneCutOptions): Promise<number[]> {
  const threshold = options.threshold ?? 0.3;
  const filters = `scale='min(${ANALYSIS_WIDTH},iw)':-2,select='gt(scene,${threshold})',metadata=print:file=-`;
  const args = [...['-hide_banner', '-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${path}`], ...['-map', '0:v:0', '-vf', filters, '-f', 'null', '-']];
  const run = await runMediaTool(ffmpeg.path, args, { timeoutMs: options.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
  if (run.exitCode !== 0) throw new MediaUnreadableError(run.stderr);
  return parseSceneCuts(run.stdout.toString('utf8'));
}

/** The `pts_time:` of each frame `metadata=print` reported ("frame:0    pts:36864   pts_time:3"), in ms. */
export function parseSceneCuts(output: string): number[] {
  const cuts: number[] = [];
  for (const match of output.matchAll(/pts_time:(\d+(?:\.\d+)?)/g)) cuts.push(Math.round(Number(match[1]) * 1000));
  return cuts.sort((a, b) => a - b);
}
