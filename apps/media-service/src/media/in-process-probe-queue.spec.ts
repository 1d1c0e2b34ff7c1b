import { InProcessProbeQueue } from './in-process-probe-queue';
import { PROBE_ATTEMPTS } from './probe-queue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('InProcessProbeQueue', () => {
  it('runs at most `concurrency` probes at once and each id once while it waits or runs', async () => {
    const queue = new InProcessProbeQueue(2, 1);
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    queue.consume((id) => {
      started.push(id);
      return new Promise<void>((resolve) => finish.set(id, resolve));
    });
    await queue.enqueue(['a', 'b', 'c', 'a']);
    await queue.enqueue(['b']);
    await tick();
    expect(started).toEqual(['a', 'b']);
    finish.get('a')!();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    finish.get('b')!();
    finish.get('c')!();
    await queue.close();
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('retries a failed probe, telling the last attempt so', async () => {
    const queue = new InProcessProbeQueue(1, 1);
    const attempts: boolean[] = [];
    queue.consume(async (_, lastAttempt) => {
      attempts.push(lastAttempt);
      throw new Error('storage away');
    });
    await queue.enqueue(['a']);
    for (let i = 0; i < 50 && attempts.length < PROBE_ATTEMPTS; i++) await tick();
    await queue.close();
    expect(attempts).toEqual([...Array<boolean>(PROBE_ATTEMPTS - 1).fill(false), true]);
  });

  it('takes an id again once its probe ended (the sweep may hand it over again)', async () => {
    const queue = new InProcessProbeQueue(1, 1);
    const started: string[] = [];
    queue.consume(async (id) => {
      started.push(id);
    });
    await queue.enqueue(['a']);
    await tick();
    await queue.enqueue(['a']);
    await tick();
    await queue.close();
    expect(started).toEqual(['a', 'a']);
  });
});
