import type { MediaTool } from './media-tool-paths';
import { MediaUnreadableError } from './media-unreadable-error';
import { runMediaTool } from './run-media-tool';

export interface FrameOptions {
  /** The instant, in milliseconds from the start. */
  atMs: number;
  /** Wider pictures are scaled down to this width, keeping their aspect. Default 1280. */
  maxWidth?: number;
  timeoutMs: number;
  /** The largest picture (width × height) decoded: ffmpeg refuses a larger one from its header (MediaUnreadableError). Default: no limit. */
  maxPixels?: number;
  /** ffmpeg's nice value (runMediaTool): a render that may wait behind others' runs at a higher one. */
  niceness?: number;
}

/** A JPEG is far smaller than this at 1280 wide; a run past it is killed. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * The picture of a video (or an image) at `atMs`, as a JPEG, from a file: ffmpeg seeks the
 * input (`-ss` before `-i`, so only the packets from the keyframe before that instant are
 * decoded), scales it down to `maxWidth` and encodes one frame. An instant after the last
 * frame but within the container's duration (the audio may run longer, or the last frame
 * starts a few ms before the end) gives that last frame; null when the input has no picture
 * at all there; MediaUnreadableError for bytes ffmpeg cannot decode. In a child process,
 * bounded in time and output (runMediaTool: MediaToolRunError).
 */
export async function extractFrame(ffmpeg: MediaTool, path: string, options: FrameOptions): Promise<Buffer | null> {
  const scale = `scale='min(${options.maxWidth ?? 1280},iw)':-2`;
  const limit = options.maxPixels === undefined ? [] : ['-max_pixels', String(options.maxPixels)];
  const frame = await encodeFrame(ffmpeg, path, options.atMs, scale, options, limit);
  if (frame || options.atMs === 0) return frame;
  // Nothing at that instant: the last frame of the second before it, read backwards (the second's frames, scaled, held by `reverse`).
  return encodeFrame(ffmpeg, path, Math.max(0, options.atMs - 1000), `${scale},reverse`, options, limit);
}

async function encodeFrame(ffmpeg: MediaTool, path: string, atMs: number, filters: string, options: FrameOptions, limit: string[]): Promise<Buffer | null> {
  const args = [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-protocol_whitelist', 'file', ...limit],
    ...['-ss', (atMs / 1000).toFixed(3), '-i', `file:${path}`],
    ...['-map', '0:v:0', '-frames:v', '1', '-vf', filters, '-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2pipe', 'pipe:1'],
  ];
  const run = await runMediaTool(ffmpeg.path, args, { timeoutMs: options.timeoutMs, maxOutputBytes: MAX_FRAME_BYTES, niceness: options.niceness });
  if (run.exitCode !== 0) throw new MediaUnreadableError(run.stderr);
  return run.stdout.length ? run.stdout : null;
}
