import type { GroupLag } from '../kafka/consumer-group-lag';
import { LagGate } from './lag-gate';

/**
 * A gate bounding `maxLagBytes`, over lag readings the test hands out one by one, on a
 * clock the test moves; it has published one record of `recordBytes` (so it knows sizes).
 */
function gateOver(maxLagBytes: number, recordBytes = 1) {
  const clock = { now: 0 };
  let next: () => Promise<GroupLag> = () => Promise.reject(new Error('no reading prepared'));
  const gate = new LagGate(() => next(), maxLagBytes, { now: () => clock.now });
  gate.notePublished(1, recordBytes);
  const readAt = async (ms: number, lag: GroupLag | Error) => {
    clock.now = ms;
    next = () => (lag instanceof Error ? Promise.reject(lag) : Promise.resolve(lag));
    await gate.poll();
  };
  return { gate, clock, readAt, setNext: (reading: Promise<GroupLag>) => (next = () => reading) };
}

describe('LagGate', () => {
  it('lets publishers through while the group is within the bound, and holds them back beyond it', async () => {
    const { gate, readAt } = gateOver(100);
    await readAt(0, { behind: 100, committed: 0 });
    expect(gate.waitSeconds()).toBeUndefined();

    await readAt(500, { behind: 101, committed: 0 });
    expect(gate.waitSeconds()).toBeGreaterThanOrEqual(1);
  });

  it('bounds bytes, not records: the same lag passes in small records and is held back in large ones', async () => {
    const small = gateOver(1_000_000, 300);
    await small.readAt(0, { behind: 3000, committed: 0 });
    expect(small.gate.behindBytes()).toBe(900_000);
    expect(small.gate.waitSeconds()).toBeUndefined();

    const large = gateOver(1_000_000, 8000);
    await large.readAt(0, { behind: 3000, committed: 0 });
    expect(large.gate.behindBytes()).toBe(24_000_000);
    expect(large.gate.waitSeconds()).toBeDefined();
  });

  it("holds nothing back before it has published anything (it cannot tell the records' size)", async () => {
    const gate = new LagGate(async () => ({ behind: 1_000_000, committed: 0 }), 100, { now: () => 0 });
    await gate.poll();
    expect(gate.behind()).toBe(1_000_000);
    expect(gate.waitSeconds()).toBeUndefined();
  });

  it('estimates Retry-After from how fast the group has been committing', async () => {
    const { gate, readAt } = gateOver(100);
    await readAt(0, { behind: 200, committed: 1000 });
    // 100 records committed in a second; 300 over the bound: about three seconds.
    await readAt(1000, { behind: 400, committed: 1100 });
    expect(gate.waitSeconds()).toBe(3);

    // One slow write batch (nothing committed for a second) is not a stall: the rate is
    // taken over five seconds of readings (100 records in two seconds now).
    await readAt(2000, { behind: 400, committed: 1100 });
    expect(gate.waitSeconds()).toBe(6);

    // A group that stored nothing for five seconds (stopped, or restarting) gets the stalled pause.
    await readAt(7000, { behind: 400, committed: 1100 });
    expect(gate.waitSeconds()).toBe(5);
  });

  it('keeps Retry-After between one and thirty seconds', async () => {
    const fast = gateOver(100);
    await fast.readAt(0, { behind: 101, committed: 0 });
    await fast.readAt(1000, { behind: 101, committed: 1_000_000 });
    expect(fast.gate.waitSeconds()).toBe(1);

    const slow = gateOver(100);
    await slow.readAt(0, { behind: 1_000_000, committed: 0 });
    await slow.readAt(1000, { behind: 1_000_000, committed: 10 });
    expect(slow.gate.waitSeconds()).toBe(30);
  });

  it('counts what this process published since the last reading', async () => {
    const { gate, readAt } = gateOver(100);
    await readAt(0, { behind: 90, committed: 0 });
    gate.notePublished(5, 5);
    expect(gate.waitSeconds()).toBeUndefined();
    gate.notePublished(10, 10);
    expect(gate.behind()).toBe(105);
    expect(gate.waitSeconds()).toBeDefined();

    // The next reading includes them: they are not counted twice.
    await readAt(500, { behind: 95, committed: 10 });
    expect(gate.behind()).toBe(95);
  });

  it('keeps counting what was published while a reading was on its way', async () => {
    const { gate, clock, setNext } = gateOver(100);
    let answer: (lag: GroupLag) => void = () => undefined;
    setNext(new Promise<GroupLag>((resolve) => (answer = resolve)));
    gate.notePublished(7, 7);
    const reading = gate.poll();
    gate.notePublished(30, 30); // may or may not be in the reading: assume it is not
    clock.now = 10;
    answer({ behind: 80, committed: 0 });
    await reading;
    expect(gate.behind()).toBe(110);
  });

  it('holds nothing back when it cannot tell: no reading yet, or only stale ones', async () => {
    const { gate, readAt, clock } = gateOver(100);
    expect(gate.waitSeconds()).toBeUndefined();

    await readAt(0, { behind: 5000, committed: 0 });
    expect(gate.waitSeconds()).toBeDefined();
    // Failed readings keep the last one until it is five seconds old.
    await readAt(4000, new Error('broker unreachable'));
    expect(gate.waitSeconds()).toBeDefined();
    clock.now = 5001;
    expect(gate.behind()).toBeUndefined();
    expect(gate.waitSeconds()).toBeUndefined();
  });

  it('logs once when it starts holding publishers back and once when it lets them go', async () => {
    const lines: string[] = [];
    const log = { warn: (m: string) => void lines.push(`warn ${m}`), log: (m: string) => void lines.push(`log ${m}`) };
    let lag: GroupLag = { behind: 0, committed: 0 };
    const gate = new LagGate(async () => lag, 1024 * 1024, { now: () => 0, logger: { stream: 'trace.ingest', log } });
    gate.notePublished(1, 1024);
    for (const behind of [10, 2000, 3000, 2500, 500, 100]) {
      lag = { behind, committed: 0 };
      await gate.poll();
    }
    expect(lines).toEqual([
      "warn Holding publishes to 'trace.ingest' back: its consumers are 2.0 MiB behind (bound 1.0 MiB)",
      "log Publishes to 'trace.ingest' go through again: its consumers are 0.5 MiB behind (bound 1.0 MiB)",
    ]);
  });

  it('reads again every polling interval until stopped', async () => {
    jest.useFakeTimers();
    try {
      let readings = 0;
      const gate = new LagGate(async () => ({ behind: ++readings, committed: 0 }), 100, { pollMs: 500 });
      gate.start();
      await jest.advanceTimersByTimeAsync(1250);
      expect(readings).toBe(3);
      gate.stop();
      await jest.advanceTimersByTimeAsync(2000);
      expect(readings).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
