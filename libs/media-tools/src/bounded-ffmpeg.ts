import { onSystemPath, type MediaTool } from './media-tool-paths';
import { runMediaTool, type RunResult } from './run-media-tool';

/** What one analysis may use: wall time (the caller's deadline), memory, and bytes of standard output kept. */
export interface AnalysisLimits {
  timeoutMs: number;
  /** Address space of the ffmpeg process (prlimit --as); default ANALYSIS_MEMORY_BYTES. */
  memoryBytes?: number;
  /** Standard output kept (per-frame statistics); default 8 MiB. */
  maxOutputBytes?: number;
}

/** 1 GiB of address space: a 1080p decode and a few filter branches use ~150 MB resident; a hostile file cannot take the machine. */
export const ANALYSIS_MEMORY_BYTES = 1024 * 1024 * 1024;
const DEFAULT_OUTPUT_BYTES = 8 * 1024 * 1024;

/** Options every analysis passes: one thread each (a worker runs several tasks at once), no prompt, no statistics lines. */
export const SINGLE_THREAD = ['-threads', '1', '-filter_threads', '1', '-filter_complex_threads', '1'];
export const QUIET = ['-hide_banner', '-nostdin', '-nostats'];

/**
 * The input `path` as ffmpeg must read it: a local file and nothing else, so that a playlist
 * inside the media (HLS, concat) cannot make ffmpeg fetch URLs or read other files.
 */
export const fileInput = (path: string): string[] => ['-protocol_whitelist', 'file', '-i', `file:${path}`];

let prlimitPath: string | null | undefined;

/** util-linux's prlimit, when the system has it (Debian, the images): it caps the child's memory and CPU seconds. */
const prlimit = (): string | null => (prlimitPath === undefined ? (prlimitPath = onSystemPath('prlimit') ?? null) : prlimitPath);

/**
 * Runs ffmpeg in its own process, killed past `timeoutMs` (runMediaTool), and, where prlimit
 * exists (Linux), with its address space and CPU seconds capped by the kernel: a file built
 * to make a decoder allocate without end fails its analysis instead of taking the worker.
 */
export function runBoundedFfmpeg(ffmpeg: MediaTool, args: readonly string[], limits: AnalysisLimits): Promise<RunResult> {
  const run = { timeoutMs: limits.timeoutMs, maxOutputBytes: limits.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES };
  const capper = process.platform === 'linux' ? prlimit() : null;
  if (!capper) return runMediaTool(ffmpeg.path, args, run);
  const cpuSeconds = Math.ceil(limits.timeoutMs / 1000) + 1;
  return runMediaTool(capper, [`--as=${limits.memoryBytes ?? ANALYSIS_MEMORY_BYTES}`, `--cpu=${cpuSeconds}`, '--', ffmpeg.path, ...args], run);
}

/** Why ffmpeg failed, in a line: its last error line, else its exit code. */
export function ffmpegFailure(result: RunResult): string {
  const lines = result.stderr
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '');
  const last = lines.pop()?.trim();
  // ffmpeg names its input by path: the worker's temporary files are no business of the user's.
  return last ? last.replace(/(file:)?\/[^\s:'"]+/g, 'the media').slice(0, 300) : `ffmpeg exited with ${String(result.exitCode)}`;
}
