// The decoding thread's entry (piscina runs its default export for each task).
import { getPriority, setPriority } from 'node:os';
import { Piscina } from 'piscina';
import { decodeOtlpExport, type OtlpExport } from './otlp-decoding';

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

/**
 * Decodes one export, and moves its bytes back with the answer (they came moved, not copied):
 * the gateway publishes an export that is one whole trace as these bytes.
 */
export default async function decodeOnThread(task: OtlpExport) {
  const decoded = await decodeOtlpExport(task);
  const { bytes } = task;
  const moved = { [Piscina.transferableSymbol]: [bytes.buffer], [Piscina.valueSymbol]: { decoded, bytes } };
  return Piscina.move(moved as unknown as Parameters<typeof Piscina.move>[0]) as unknown as { decoded: typeof decoded; bytes: Uint8Array };
}
