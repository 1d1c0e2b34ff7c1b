import { InProcessProbeQueue } from './in-process-probe-queue';
import { PROBE_ATTEMPTS, type QueuedJob } from './probe-queue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Jobs of one project. */
const of = (projectId: string, ...ids: string[]): QueuedJob[] => ids.map((id) => ({ id, projectId }));

/** A fake worker: records what started, and finishes a job when the test says. */
function holdingWorker(queue: InProcessProbeQueue) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  queue.consume((id) => {
    started.push(id);
    return new Promise<void>((resolve) => finish.set(id, resolve));
  });
  return { started, done: async (id: string) => (finish.get(id)!(), await tick()) };
}

describe('InProcessProbeQueue', () => {
  it('runs at most `concurrency` probes at once and each id once while it waits or runs', async () => {
    const queue = new InProcessProbeQueue(2, 1);
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    queue.consume((id) => {
      started.push(id);
      return new Promise<void>((resolve) => finish.set(id, resolve));
    });
    await queue.enqueue(of('p', 'a', 'b', 'c', 'a'));
    await queue.enqueue(of('p', 'b'));
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
    await queue.enqueue(of('p', 'a'));
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
    await queue.enqueue(of('p', 'a'));
    await tick();
    await queue.enqueue(of('p', 'a'));
    await tick();
    await queue.close();
    expect(started).toEqual(['a', 'a']);
  });

  it("runs another project's job at once while one project's flood waits, taking at most its cap of the slots", async () => {
    const queue = new InProcessProbeQueue(2, 1, 'Probe', 1);
    const worker = holdingWorker(queue);
    await queue.enqueue(of('flood', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'));
    await tick();
    // Capped at one: the other slot stays free for another project.
    expect(worker.started).toEqual(['f1']);
    await queue.enqueue(of('small', 's1'));
    await tick();
    expect(worker.started).toEqual(['f1', 's1']);
    await worker.done('s1');
    await worker.done('f1');
    expect(worker.started).toEqual(['f1', 's1', 'f2']);
    for (const id of ['f2', 'f3', 'f4', 'f5', 'f6', 'f7']) await worker.done(id);
    expect(worker.started).toEqual(['f1', 's1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8']);
    await worker.done('f8');
    await queue.close();
  });

  it('shares the slots in turns: a project queued behind a flood runs next, not after all of it', async () => {
    const queue = new InProcessProbeQueue(2, 1, 'Probe', 2);
    const worker = holdingWorker(queue);
    await queue.enqueue(of('flood', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6'));
    await queue.enqueue(of('other', 'o1', 'o2'));
    await tick();
    expect(worker.started).toEqual(['f1', 'f2']);
    await worker.done('f1');
    await worker.done('f2');
    expect(worker.started).toEqual(['f1', 'f2', 'o1', 'o2']);
    await worker.done('o1');
    expect(worker.started).toEqual(['f1', 'f2', 'o1', 'o2', 'f3']);
    for (const id of ['o2', 'f3', 'f4', 'f5', 'f6']) await worker.done(id);
    await queue.close();
    expect(worker.started).toHaveLength(8);
  });
});
