import { checkFilters, describeFilterReport } from './filter-check';
import { describeMediaTool, resolveMediaTools, type MediaToolSettings } from './media-tool-paths';

/** Where the boot check writes (a Nest Logger fits). */
export interface MediaToolsLog {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * The boot-time check of a process that will run ffmpeg: which ffmpeg and ffprobe it found,
 * and which filters the media features need that this ffmpeg lacks, in one line a newcomer
 * can act on. It never fails the boot (traces, prompts and benchmarks need no ffmpeg); it
 * only says what will not work.
 */
export async function reportMediaTools(log: MediaToolsLog, settings: MediaToolSettings, searchPath?: string): Promise<void> {
  try {
    const tools = resolveMediaTools(settings, searchPath);
    const report = await checkFilters(tools.ffmpeg);
    const { level, message } = describeFilterReport(report);
    log[level](`${message} ffprobe: ${describeMediaTool(tools.ffprobe)}.`);
  } catch (err) {
    log.warn(`Media: ${(err as Error).message}. Probing, frames and the video scorers cannot run until ffmpeg is found.`);
  }
}
