import { readFile, stat } from 'node:fs/promises';

/** One frame's tags as ffmpeg's `metadata=mode=print` (or `ametadata`) writes them. */
export interface FrameTags {
  /** Seconds from the start (`pts_time`). */
  time: number;
  tags: Record<string, string>;
}

/**
 * Reads what `metadata=mode=print:file=…` wrote:
 * ```
 * frame:24   pts:12288   pts_time:1
 * lavfi.black_start=1
 * ```
 * Frames whose time is not a number are left out.
 */
export function parseFrameTags(text: string): FrameTags[] {
  const frames: FrameTags[] = [];
  let current: FrameTags | undefined;
  for (const line of text.split('\n')) {
    const head = /^frame:\s*\d+\s+pts:\s*\S+\s+pts_time:\s*(\S+)/.exec(line);
    if (head) {
      const time = Number(head[1]);
      current = Number.isFinite(time) ? { time, tags: {} } : undefined;
      if (current) frames.push(current);
      continue;
    }
    const equals = line.indexOf('=');
    if (current && equals > 0) current.tags[line.slice(0, equals).trim()] = line.slice(equals + 1).trim();
  }
  return frames;
}

/** A tag as a finite number, else undefined ("nan" for a black frame's blur, "-inf" for silence). */
export function numericTag(frame: FrameTags, key: string): number | undefined {
  const text = frame.tags[key];
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * A metadata file an analysis wrote, read whole once ffmpeg has exited. Its size is checked
 * first: a file past `maxBytes` (a clip far longer than any deadline allows) is an error, not
 * a string the worker holds.
 */
export async function readFrameTags(path: string, maxBytes: number): Promise<FrameTags[]> {
  let bytes: number;
  try {
    bytes = (await stat(path)).size;
  } catch (err) {
    // A branch that never saw a frame (no such stream) leaves no file.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  if (bytes > maxBytes) throw new Error(`the analysis wrote ${bytes} bytes of frame statistics, more than ${maxBytes}`);
  return parseFrameTags(await readFile(path, 'utf8'));
}
