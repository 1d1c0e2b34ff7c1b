// The decoding thread's entry (piscina runs its default export for each task).
import { getPriority, setPriority } from 'node:os';
import { Piscina } from 'piscina';
import { DomainError } from '@cinetrace/contracts';
import { decodeOtlpExport, type OtlpDecoded, type OtlpExport } from './otlp-decoding';
import { ownsItsMemory } from '../http/owned-bytes';
import { gunzipWithin } from './otlp-gunzip';

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

/** An export handed to a thread: still gzip when `gunzipWithin` is set (the body limit its output stops at). */
export interface OtlpThreadTask extends OtlpExport {
  gunzipWithin?: number;
}

/** The decoded export, and its bytes (decompressed) moved back. */
export interface OtlpThreadAnswer {
  decoded: OtlpDecoded;
  bytes: Uint8Array;
}

/**
 * Decompresses (when the export came gzipped) and decodes one export, and moves its bytes back
 * with the answer (they came moved, not copied): the gateway publishes an export that is one
 * whole trace as these bytes.
 */
export default async function decodeOnThread(task: OtlpThreadTask): Promise<OtlpThreadAnswer> {
  let bytes: Uint8Array = task.bytes;
  let decoded: OtlpDecoded;
  try {
    if (task.gunzipWithin !== undefined) bytes = gunzipWithin(task.bytes, task.gunzipWithin);
    decoded = await decodeOtlpExport({ encoding: task.encoding, bytes, maxJsonDepth: task.maxJsonDepth });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    decoded = { ok: false, code: err.code, detail: err.detail };
  }
  // The task's own bytes go back with all their memory (the gateway's body pool gives more than a
  // body needs); zlib's output may be a view of a larger buffer (or of this thread's Buffer pool), which a move would take whole.
  if (bytes !== task.bytes && !ownsItsMemory(bytes)) bytes = new Uint8Array(bytes);
  const moved = { [Piscina.transferableSymbol]: [bytes.buffer], [Piscina.valueSymbol]: { decoded, bytes } };
  return Piscina.move(moved as unknown as Parameters<typeof Piscina.move>[0]) as unknown as OtlpThreadAnswer;
}
