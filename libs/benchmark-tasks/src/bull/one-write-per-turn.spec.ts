import { expect } from '@jest/globals';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { oneWritePerTurn } from './one-write-per-turn';

// Real Redis: what is checked is what reaches its socket, and the answers that come back.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Counts the socket's system-call-level writes (one `_write` or one `_writev` each). */
function countWrites(socket: Socket): { count: number } {
  const counter = { count: 0 };
  const raw = socket as unknown as { _write: (...args: unknown[]) => void; _writev?: (...args: unknown[]) => void };
  const write = raw._write.bind(socket);
  const writev = raw._writev?.bind(socket);
  raw._write = (...args) => {
    counter.count++;
    write(...args);
  };
  if (writev) {
    raw._writev = (...args) => {
      counter.count++;
      writev(...args);
    };
  }
  return counter;
}

describe('oneWritePerTurn', () => {
  const clients: IORedis[] = [];
  const key = `cinetrace-test:one-write:${randomUUID()}`;

  async function connected(): Promise<IORedis> {
    const redis = new IORedis(REDIS_URL, { lazyConnect: true });
    clients.push(redis);
    await redis.connect();
    return redis;
  }

  afterAll(async () => {
    await clients[0]?.del(key);
    await Promise.all(clients.map((redis) => redis.quit().catch(() => undefined)));
  });

  it('sends the commands of one turn in one write, in the order given', async () => {
    const plain = await connected();
    const batched = oneWritePerTurn(await connected());
    const plainWrites = countWrites(plain.stream as Socket);
    const batchedWrites = countWrites(batched.stream as Socket);

    await Promise.all(Array.from({ length: 40 }, (_, i) => plain.echo(`p${i}`)));
    const pushed = await Promise.all(Array.from({ length: 40 }, (_, i) => batched.rpush(key, `v${i}`)));

    expect(plainWrites.count).toBe(40);
    expect(batchedWrites.count).toBe(1);
    expect(pushed).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await batched.lrange(key, 0, -1)).toEqual(Array.from({ length: 40 }, (_, i) => `v${i}`));
  });

  it('does not hold a command back: each turn’s commands leave by the end of that turn', async () => {
    const batched = oneWritePerTurn(await connected());
    const writes = countWrites(batched.stream as Socket);
    for (let i = 0; i < 5; i++) expect(await batched.echo(`turn ${i}`)).toBe(`turn ${i}`);
    expect(writes.count).toBe(5);
  });

  it('keeps working across a reconnect, and setting a connection up twice changes nothing', async () => {
    const batched = oneWritePerTurn(oneWritePerTurn(await connected()));
    batched.disconnect(true);
    expect(await Promise.all([batched.echo('a'), batched.echo('b')])).toEqual(['a', 'b']);
    const writes = countWrites(batched.stream as Socket);
    await Promise.all([batched.echo('c'), batched.echo('d'), batched.echo('e')]);
    expect(writes.count).toBe(1);
  });
});
