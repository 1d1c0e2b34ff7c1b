import { resolveMediaTool, type MediaToolName } from '@cinetrace/media-tools';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A test clip made by ffmpeg's own sources (testsrc, color, anullsrc …), so the repository
 * holds no binary fixtures: `makeClip(dir, 'a.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p'])`.
 * Uses the ffmpeg media work would use (libs/media-tools); returns the file's path.
 */
export function makeClip(dir: string, name: string, inputs: string[], output: string[] = []): string {
  const path = join(dir, name);
  execFileSync(mediaToolPath('ffmpeg'), ['-hide_banner', '-v', 'error', ...inputs, ...output, '-y', path], { timeout: 60_000 });
  return path;
}

/** `-f lavfi -i <graph>` for each source graph. */
export const lavfi = (...graphs: string[]): string[] => graphs.flatMap((graph) => ['-f', 'lavfi', '-i', graph]);

/** The ffmpeg or ffprobe the tests run: the one on PATH, else the npm package's (as an app with no FFMPEG_PATH / FFPROBE_PATH finds it). */
export const mediaToolPath = (name: MediaToolName): string => resolveMediaTool(name, {}).path;
