import type { MediaProbeView } from '@cinetrace/contracts';
import type { Readable } from 'node:stream';
import type { MediaTool } from './media-tool-paths';
import { MediaToolRunError, runMediaTool } from './run-media-tool';

/** What the contract's media `probe` holds (docs/api-reference.md, Media): nulls where they do not apply. */
export type MediaProbe = MediaProbeView;

/** A probe either reads the media or says in words why it could not: never a throw for bad input. */
export type ProbeOutcome = { ok: true; probe: MediaProbe } | { ok: false; reason: string };

export interface ProbeOptions {
  /** A stream source is read within this time too. Default 30 s. */
  timeoutMs?: number;
  /**
   * The largest picture (width × height) the probe decodes: ffprobe's decoders refuse a larger
   * one from its header, before decoding (an image bomb), and the outcome says so. Default: no limit.
   */
  maxPixels?: number;
}

/** ffprobe's JSON, only the entries asked for (so a file with thousands of streams cannot make it large). */
interface FfprobeOutput {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
  format?: { duration?: string; bit_rate?: string; format_name?: string };
}

const ENTRIES = 'format=duration,bit_rate,format_name:stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate,duration:stream_disposition=attached_pic';
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** A positive finite number from ffprobe's text, else null ("N/A", "0/0", absent). */
function positive(text: string | number | undefined): number | null {
  const value = typeof text === 'number' ? text : Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : null;
}

/** "24/1", "30000/1001" → 24, 29.97 (three decimals); "0/0" (a still image) → null. */
export function frameRate(ratio: string | undefined): number | null {
  const match = /^(\d+)\/(\d+)$/.exec(ratio ?? '');
  if (!match || Number(match[2]) === 0) return null;
  return positive(Math.round((Number(match[1]) / Number(match[2])) * 1000) / 1000);
}

/** The contract's probe from ffprobe's JSON, or why it is not media. */
export function probeFromFfprobe(output: FfprobeOutput): ProbeOutcome {
  const streams = output.streams ?? [];
  // A cover image inside an audio file is a video stream with attached_pic: not the media's picture.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  // ffprobe reads any text as the "tty" demuxer (ANSI art): a text file is not media.
  if ((!video && !audio) || output.format?.format_name === 'tty') return { ok: false, reason: 'no audio or video stream found' };
  const seconds = positive(output.format?.duration) ?? positive(video?.duration) ?? positive(audio?.duration);
  return {
    ok: true,
    probe: {
      durationMs: seconds === null ? null : Math.round(seconds * 1000),
      width: positive(video?.width),
      height: positive(video?.height),
      fps: video ? (frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate)) : null,
      videoCodec: video?.codec_name ?? null,
      audioCodec: audio?.codec_name ?? null,
      hasAudio: Boolean(audio),
      bitRate: positive(output.format?.bit_rate),
    },
  };
}

/** What ffmpeg's image checks write when a picture passes `-max_pixels`: "Picture size 8000x8000 exceeds specified max pixel count 40000000". */
const TOO_MANY_PIXELS = /Picture size (\d+)x(\d+) exceeds specified max pixel count/;

/** Why a picture of `width` × `height` is not decoded, in words a user acts on. */
export function tooManyPixels(width: number, height: number, maxPixels: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  return `the picture is ${width}×${height} (${count(width * height)} pixels), more than the ${count(maxPixels)} this service decodes (MEDIA_MAX_PIXELS)`;
}

/** ffprobe's last error line without the input's name ("pipe:: Invalid data …" → "Invalid data …"). */
function reasonFrom(stderr: string): string {
  const last = stderr.trim().split('\n').pop()?.trim() ?? '';
  const reason = last.replace(/^.*?: (?=[A-Z])/, '');
  return reason ? reason.slice(0, 300) : 'ffprobe could not read it';
}

/**
 * Probes a file (a path) or a stream (piped to ffprobe's standard input) in a child process,
 * bounded in time and output. A source that is not media gives `{ ok: false, reason }`; only a
 * failure of the machinery (ffprobe missing, killed) throws.
 */
export async function probeMedia(ffprobe: MediaTool, source: string | Readable, options: ProbeOptions = {}): Promise<ProbeOutcome> {
  // Only the one protocol the source needs: a playlist inside an upload (HLS, concat) must not make ffprobe fetch URLs.
  const [protocol, input] = typeof source === 'string' ? ['file', 'file:' + source] : ['pipe', 'pipe:0'];
  // -max_pixels bounds every decoder ffprobe opens to read the streams (a PNG is decoded whole to learn its size).
  const limit = options.maxPixels === undefined ? [] : ['-max_pixels', String(options.maxPixels)];
  const args = ['-v', 'error', ...limit, '-protocol_whitelist', protocol, '-print_format', 'json', '-show_entries', ENTRIES, input];
  let run;
  try {
    run = await runMediaTool(ffprobe.path, args, {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      input: typeof source === 'string' ? undefined : source,
    });
  } catch (err) {
    if (err instanceof MediaToolRunError && err.failure === 'timeout') return { ok: false, reason: 'probing took too long' };
    if (err instanceof MediaToolRunError && err.failure === 'output-too-large') return { ok: false, reason: 'ffprobe described more than it may' };
    throw err;
  }
  // A decoder refused the picture from its header: ffprobe then reports no size, and may even exit 0.
  const refused = TOO_MANY_PIXELS.exec(run.stderr);
  if (refused && options.maxPixels !== undefined) return { ok: false, reason: tooManyPixels(Number(refused[1]), Number(refused[2]), options.maxPixels) };
  if (run.exitCode !== 0) return { ok: false, reason: reasonFrom(run.stderr) };
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(run.stdout.toString('utf8')) as FfprobeOutput;
  } catch {
    return { ok: false, reason: 'ffprobe answered something that is not JSON' };
  }
  const outcome = probeFromFfprobe(parsed);
  // A size read from the header alone (no decoder opened): the limit holds all the same, before any frame is decoded.
  const { width, height } = outcome.ok ? outcome.probe : { width: null, height: null };
  if (options.maxPixels !== undefined && width !== null && height !== null && width * height > options.maxPixels) {
    return { ok: false, reason: tooManyPixels(width, height, options.maxPixels) };
  }
  return outcome;
}
