import { expect } from '@jest/globals';
import { BodyMemoryPool } from './body-memory-pool';

const KiB = 1024;

describe('BodyMemoryPool', () => {
  it('gives a large body a view at the start of memory rounded up to a power of two, and small ones their own', () => {
    const pool = new BodyMemoryPool(256 * KiB, 8 * 1024 * KiB);
    const large = pool.take(300 * KiB);
    expect([large.length, large.byteOffset, large.buffer.byteLength]).toEqual([300 * KiB, 0, 512 * KiB]);
    expect(pool.handedOut(large)).toBe(true);
    const small = pool.take(10);
    expect(small.buffer.byteLength).toBe(10);
    expect(pool.handedOut(small)).toBe(false);
  });

  it('hands the memory of a body given back to the next body of that size, once', () => {
    const pool = new BodyMemoryPool(256 * KiB, 8 * 1024 * KiB);
    const first = pool.take(300 * KiB);
    pool.give(first);
    pool.give(first); // given twice by mistake: kept once
    expect(pool.heldBytes).toBe(512 * KiB);
    const second = pool.take(400 * KiB);
    expect(second.buffer).toBe(first.buffer);
    expect(pool.take(400 * KiB).buffer).not.toBe(first.buffer);
    expect(pool.heldBytes).toBe(0);
  });

  it('never keeps memory it did not hand out, memory moved away, or more than its bound', () => {
    const pool = new BodyMemoryPool(256 * KiB, 1024 * KiB);
    pool.give(Buffer.from(new ArrayBuffer(512 * KiB))); // another owner's: it may still be read
    expect(pool.heldBytes).toBe(0);

    const moved = pool.take(300 * KiB);
    structuredClone(moved.buffer, { transfer: [moved.buffer] }); // detached, as after a move to a thread
    pool.give(moved);
    expect(pool.heldBytes).toBe(0);

    const [a, b, c] = [pool.take(300 * KiB), pool.take(300 * KiB), pool.take(300 * KiB)];
    for (const body of [a, b, c]) pool.give(body);
    expect(pool.heldBytes).toBe(1024 * KiB);
  });

  it('takes back memory that went to a thread and came back as a new ArrayBuffer, once adopted', () => {
    const pool = new BodyMemoryPool(256 * KiB, 8 * 1024 * KiB);
    const body = pool.take(300 * KiB);
    const back = structuredClone(body.buffer, { transfer: [body.buffer] });
    pool.give(Buffer.from(back, 0, 300 * KiB));
    expect(pool.heldBytes).toBe(0);
    pool.adopt(back);
    pool.give(Buffer.from(back, 0, 300 * KiB));
    expect(pool.heldBytes).toBe(512 * KiB);
  });
});
