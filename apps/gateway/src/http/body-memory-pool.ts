/**
 * Memory for large request bodies, used again once a body is done with instead of allocated
 * anew for each. A fresh multi-MiB buffer per request costs the event loop its first-touch page
 * faults, and the external memory it adds up to (with the socket's own chunks) sets V8 off on
 * main-thread mark-compacts of several milliseconds every second or two while one project
 * floods the service with large exports: every other project's requests waited behind them.
 *
 * Sizes are rounded up to a power of two, so a body is a view at the start of its memory.
 * What the pool keeps is bounded (`maxPooledBytes`); memory given back past that is left to
 * the garbage collector.
 */
export class BodyMemoryPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** The memory of the bodies handed out, until moved: it is the body's own, whatever its size. */
  private readonly lent = new WeakSet<ArrayBuffer>();
  private pooledBytes = 0;

  constructor(
    /** Bodies smaller than this are allocated as usual (they cost little, and are many). */
    private readonly minBytes: number,
    private readonly maxPooledBytes: number,
  ) {}

  /** A buffer of `length` bytes: for a large body, a view at the start of pooled memory. */
  take(length: number): Buffer {
    if (length < this.minBytes) return Buffer.allocUnsafeSlow(length);
    const size = roundedSize(length);
    const memory = this.free.get(size)?.pop();
    if (memory) this.pooledBytes -= size;
    const body = Buffer.from(memory ?? new ArrayBuffer(size), 0, length);
    this.lent.add(body.buffer);
    return body;
  }

  /** Whether `bytes` is a body this pool handed out: its memory, all of it, can be moved to a thread with it. */
  handedOut(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
    return bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && this.lent.has(bytes.buffer);
  }

  /**
   * Says that `memory` is a body's this pool handed out, moved to a thread and back (a move
   * gives it a new ArrayBuffer object): it can be given back as if never moved.
   */
  adopt(memory: ArrayBufferLike): void {
    if (memory instanceof ArrayBuffer) this.lent.add(memory);
  }

  /**
   * Gives a body's memory back for the next one: only memory this pool handed out, and only
   * once nothing will read the body again (refused, or decoded and not kept), as the next
   * body's bytes overwrite it. Anything else is left alone (another owner may still use it).
   */
  give(bytes: Uint8Array): void {
    const memory = bytes.buffer;
    if (!(memory instanceof ArrayBuffer) || !this.lent.delete(memory)) return;
    const size = memory.byteLength; // 0 once moved away (detached)
    if (size < this.minBytes || this.pooledBytes + size > this.maxPooledBytes) return;
    const list = this.free.get(size) ?? [];
    list.push(memory);
    this.free.set(size, list);
    this.pooledBytes += size;
  }

  /** How many bytes the pool holds now (for its spec). */
  get heldBytes(): number {
    return this.pooledBytes;
  }
}

/** The power of two at or above `length`. */
function roundedSize(length: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, length)));
}
