import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';

export interface RunLimits {
  /** The process is killed (SIGKILL) past this long. */
  timeoutMs: number;
  /** The process is killed once its standard output passes this many bytes. */
  maxOutputBytes: number;
  /** Streamed to the process's standard input, and closed when the run ends (the tool may stop reading early). */
  input?: Readable;
  /** The process's nice value (1 to 19; default: the service's own): a higher one leaves the CPU to the others first. */
  niceness?: number;
}

export interface RunResult {
  exitCode: number | null;
  stdout: Buffer;
  /** The end of what the tool wrote to standard error (its last 8 KiB): where ffmpeg says why it failed. */
  stderr: string;
}

export type RunFailure = 'timeout' | 'output-too-large' | 'not-started' | 'input-failed';

/** The run itself failed: the tool could not start, ran too long or wrote too much. A tool's own non-zero exit is a RunResult. */
export class MediaToolRunError extends Error {
  override name = 'MediaToolRunError';
  constructor(
    readonly failure: RunFailure,
    message: string,
  ) {
    super(message);
  }
}

const STDERR_TAIL_BYTES = 8 * 1024;

/**
 * Runs ffmpeg or ffprobe in a child process (never on the event loop), bounded in time and
 * in the output it may leave in memory. Arguments are passed as a list, never through a shell.
 */
export function runMediaTool(path: string, args: readonly string[], limits: RunLimits): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    if (limits.niceness && child.pid !== undefined) lowerPriority(child.pid, limits.niceness);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let failure: MediaToolRunError | undefined;

    const stop = (error: MediaToolRunError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new MediaToolRunError('timeout', `${args[0] ?? path} ran longer than ${limits.timeoutMs} ms`)), limits.timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > limits.maxOutputBytes) return stop(new MediaToolRunError('output-too-large', `the output passed ${limits.maxOutputBytes} bytes`));
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    // Every pipe's errors are handled (an unhandled 'error' ends the process): a tool that has
    // read enough closes its input early (EPIPE is expected, not a failure), and a pipe that
    // breaks otherwise ends the run, which 'close' settles.
    for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe.on('error', () => undefined);
    if (!limits.input) child.stdin.end();
    else {
      limits.input.on('error', (err) => stop(new MediaToolRunError('input-failed', `the input failed: ${err.message}`)));
      // eslint-disable-next-line no-restricted-syntax -- both ends have error listeners above; pipeline() would make the tool's early close an input failure
      limits.input.pipe(child.stdin);
    }

    child.once('error', (err) => {
      clearTimeout(timer);
      limits.input?.destroy();
      reject(new MediaToolRunError('not-started', `${path} could not be started: ${err.message}`));
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      if (limits.input) {
        limits.input.unpipe();
        limits.input.destroy();
      }
      if (failure) return reject(failure);
      resolve({ exitCode, stdout: Buffer.concat(stdout), stderr: stderr.toString('utf8') });
    });
  });
}

/** Lowers a started process's CPU priority; where the system refuses (it never should for a higher nice value), the run goes on as it is. */
function lowerPriority(pid: number, niceness: number): void {
  try {
    setPriority(pid, Math.min(19, Math.max(1, Math.trunc(niceness))));
  } catch {
    // Not worth failing a render for: it only runs at the usual priority.
  }
}
