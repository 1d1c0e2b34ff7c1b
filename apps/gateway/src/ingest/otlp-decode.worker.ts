// The decoding thread's entry (piscina runs its default export for each task).
import { getPriority, setPriority } from 'node:os';
import { decodeOtlpExport } from './otlp-decoding';

/**
 * This thread decodes large exports in the background: at a lower CPU priority than the event
 * loop (on Linux a thread has its own nice value), so that a project flooding the pool with
 * large exports never slows the small ones every other project's exporters send, which the
 * loop decodes itself. The thread still takes every cycle the loop leaves idle.
 */
export const DECODE_THREAD_NICENESS_STEP = 10;
try {
  setPriority(Math.min(19, getPriority() + DECODE_THREAD_NICENESS_STEP));
} catch {
  // A system that refuses leaves the thread at the usual priority: slower for others, still correct.
}

export default decodeOtlpExport;
