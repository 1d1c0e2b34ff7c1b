import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { MediaTool } from './media-tool-paths';

/**
 * Test clips made by ffmpeg's own sources (testsrc, color, anullsrc), so the repository holds
 * no binary fixtures. Used by the specs; each call writes one file under `dir` and returns its path.
 */
export function makeClip(ffmpeg: MediaTool, dir: string, name: string, inputs: string[], output: string[] = []): string {
  const path = join(dir, name);
  execFileSync(ffmpeg.path, ['-hide_banner', '-v', 'error', ...inputs, ...output, '-y', path], { timeout: 60_000 });
  return path;
}

/** `-f lavfi -i <graph>` for each source graph. */
export const lavfi = (...graphs: string[]): string[] => graphs.flatMap((graph) => ['-f', 'lavfi', '-i', graph]);
