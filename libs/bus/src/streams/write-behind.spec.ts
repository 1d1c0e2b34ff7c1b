import { setTimeout as sleep } from 'node:timers/promises';
import { WriteBehind } from './write-behind';

interface Entry {
  name: string;
  size: number;
}

/** A store whose writes take `ms` each, recording what each write held. */
function slowStore(ms: number) {
  const writes: string[][] = [];
  const write = async (entries: Entry[]) => {
    await sleep(ms);
    writes.push(entries.map((e) => e.name));
  };
  return { writes, write };
}

describe('WriteBehind', () => {
  it('writes the first entry within a turn and gathers what arrives meanwhile into the next write, in order', async () => {
    const store = slowStore(50);
    const writer = new WriteBehind<Entry>(store.write, 100);
    const stored = [writer.add({ name: 'a', size: 1 })];
    await sleep(10);
    stored.push(writer.add({ name: 'b', size: 1 }), writer.add({ name: 'c', size: 1 }), writer.add({ name: 'd', size: 1 }));
    expect(writer.backlog).toBe(4);

    await Promise.all(stored);

    expect(store.writes).toEqual([['a'], ['b', 'c', 'd']]);
    expect(writer.backlog).toBe(0);
  });

  it("lets the entries added within the same turn (a fetch's partitions) join the first write", async () => {
    const store = slowStore(20);
    const writer = new WriteBehind<Entry>(store.write, 100);
    const stored = ['p0', 'p1', 'p2'].map((name) => writer.add({ name, size: 2 }));
    await Promise.all(stored);
    expect(store.writes).toEqual([['p0', 'p1', 'p2']]);
  });

  it('resolves an entry only once the write that held it is durable', async () => {
    const store = slowStore(60);
    const writer = new WriteBehind<Entry>(store.write, 100);
    let stored = false;
    void writer.add({ name: 'a', size: 1 }).then(() => (stored = true));
    await sleep(30);
    expect(stored).toBe(false);
    await writer.idle();
    expect(stored).toBe(true);
  });

  it('keeps a write within its size, never splitting an entry', async () => {
    const store = slowStore(20);
    const writer = new WriteBehind<Entry>(store.write, 5);
    const stored = [writer.add({ name: 'first', size: 1 })];
    await sleep(5);
    stored.push(...['a', 'b', 'c'].map((name) => writer.add({ name, size: 3 })), writer.add({ name: 'huge', size: 9 }));
    await Promise.all(stored);
    expect(store.writes).toEqual([['first'], ['a'], ['b'], ['c'], ['huge']]);
  });

  it('after a failed write, fails what it held and what waited, and takes nothing more', async () => {
    const writer = new WriteBehind<Entry>(async () => {
      await sleep(20);
      throw new Error('store down for good');
    }, 100);
    const first = writer.add({ name: 'a', size: 1 });
    const second = writer.add({ name: 'b', size: 1 });
    await expect(first).rejects.toThrow('store down for good');
    await expect(second).rejects.toThrow('store down for good');
    await expect(writer.add({ name: 'c', size: 1 })).rejects.toThrow('stopped');
    expect(writer.backlog).toBe(0);
  });

  it('with a linger, holds a write back until its records arrive or the oldest has waited long enough', async () => {
    const store = slowStore(5);
    const writer = new WriteBehind<Entry>(store.write, 100, { ms: 300, records: 4 });
    const storedAt: Record<string, number> = {};
    const started = performance.now();
    const add = (name: string, size: number) => writer.add({ name, size }).then(() => (storedAt[name] = performance.now() - started));

    // Trickling in: all three within the linger join one write, which starts once it ran out.
    const trickle = [add('a', 1)];
    await sleep(50);
    trickle.push(add('b', 1));
    await sleep(50);
    trickle.push(add('c', 1));
    await Promise.all(trickle);
    expect(store.writes).toEqual([['a', 'b', 'c']]);
    expect(storedAt.a).toBeGreaterThanOrEqual(290);

    // A write waiting for more starts as soon as enough records wait.
    const burstAt = performance.now() - started;
    const burst = [add('d', 2)];
    await sleep(20);
    burst.push(add('e', 2));
    await Promise.all(burst);
    expect(store.writes[1]).toEqual(['d', 'e']);
    expect(storedAt.e - burstAt).toBeLessThan(200);
  });

  it('tells a waiting caller when a write ended, so it can check the backlog again', async () => {
    const store = slowStore(40);
    const writer = new WriteBehind<Entry>(store.write, 100);
    void writer.add({ name: 'a', size: 7 });
    const started = Date.now();
    await writer.progress(5000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(writer.backlog).toBe(0);
  });
});
