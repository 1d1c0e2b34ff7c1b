import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * Crypto-strength randomness in [0, 1), drawn from a pool refilled 1,024 values at a time:
 * ulid's default source asks the OS for one byte per character (16 native calls per id, on
 * every ingested trace and span).
 */
const pool = new Uint32Array(1024);
let drawn = pool.length;
export function pooledRandom(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++] / 2 ** 32;
}

const nextUlid = monotonicFactory(pooledRandom);

/**
 * A prefixed, time-sortable id (`prj_01jh8z…`): a ULID, monotonic within the process,
 * lower-cased (which keeps its sort order), so ordering by id is ordering by creation.
 */
export function newId(prefix: string): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}
