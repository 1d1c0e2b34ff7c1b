import { InProcessJobQueue } from './in-process-job-queue';
import type { JobQueueSettings, JobRun, JobToQueue } from './job-queue';

interface Data {
  projectId: string;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Jobs of one project. */
const of = (projectId: string, ...ids: string[]): JobToQueue<Data>[] => ids.map((id) => ({ id, data: { projectId } }));
const aQueue = (settings: Partial<JobQueueSettings<Data>> = {}) =>
  new InProcessJobQueue<Data>({ name: 'test-jobs', label: 'Test', concurrency: 2, attempts: 3, backoffMs: 1, groupOf: (data) => data.projectId, ...settings });

/** A fake handler: records what started, and finishes a job when the test says. */
function holdingHandler(queue: InProcessJobQueue<Data>) {
  const started: string[] = [];
  const runs = new Map<string, JobRun<Data>>();
  const finish = new Map<string, () => void>();
  queue.process((job) => {
    started.push(job.id);
    runs.set(job.id, job);
    return new Promise<void>((resolve) => finish.set(job.id, resolve));
  });
  return { started, runs, done: async (id: string) => (finish.get(id)!(), await tick()) };
}

describe('InProcessJobQueue', () => {
  it('runs at most `concurrency` jobs at once and each id once while it waits or runs', async () => {
    const queue = aQueue();
    const worker = holdingHandler(queue);
    await queue.enqueue(of('p', 'a', 'b', 'c', 'a'));
    await queue.enqueue(of('p', 'b'));
    await tick();
    expect(worker.started).toEqual(['a', 'b']);
    expect(await queue.counts()).toEqual({ waiting: 1, active: 2, delayed: 0 });
    await worker.done('a');
    expect(worker.started).toEqual(['a', 'b', 'c']);
    await worker.done('b');
    await worker.done('c');
    await queue.close();
    expect(worker.started).toEqual(['a', 'b', 'c']);
  });

  it('holds the jobs enqueued before process() until it is called', async () => {
    const queue = aQueue();
    await queue.enqueue(of('p', 'a'));
    await tick();
    const worker = holdingHandler(queue);
    await tick();
    expect(worker.started).toEqual(['a']);
    await worker.done('a');
    await queue.close();
  });

  it('retries a failed job after its backoff, telling the last attempt so, as many times as the job allows', async () => {
    const queue = aQueue({ attempts: (data) => (data.projectId === 'twice' ? 2 : 3), backoffMs: 20 });
    const attempts: Array<[string, number, boolean, number]> = [];
    queue.process(async ({ id, attempt, lastAttempt }) => {
      attempts.push([id, attempt, lastAttempt, Date.now()]);
      throw new Error('storage away');
    });
    await queue.enqueue([...of('thrice', 'a'), ...of('twice', 'b')]);
    for (let i = 0; i < 100 && attempts.length < 5; i++) await tick();
    await queue.close();
    const a = attempts.filter(([id]) => id === 'a');
    expect(a.map(([, attempt, last]) => [attempt, last])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(attempts.filter(([id]) => id === 'b').map(([, attempt, last]) => [attempt, last])).toEqual([
      [1, false],
      [2, true],
    ]);
    // Exponential: 20 ms, then 40 ms.
    expect(a[1][3] - a[0][3]).toBeGreaterThanOrEqual(18);
    expect(a[2][3] - a[1][3]).toBeGreaterThanOrEqual(38);
  });

  it('takes an id again once its job ended (a sweep may hand it over again)', async () => {
    const queue = aQueue({ concurrency: 1 });
    const started: string[] = [];
    queue.process(async ({ id }) => void started.push(id));
    await queue.enqueue(of('p', 'a'));
    await tick();
    await queue.enqueue(of('p', 'a'));
    await tick();
    await queue.close();
    expect(started).toEqual(['a', 'a']);
  });

  it("runs another project's job at once while one project's flood waits, taking at most its cap of the slots", async () => {
    const queue = aQueue({ perGroup: 1 });
    const worker = holdingHandler(queue);
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
    const queue = aQueue({ perGroup: 2 });
    const worker = holdingHandler(queue);
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

  it('cancels: a running job is told through its signal, a waiting one never starts, and no retry follows', async () => {
    const queue = aQueue({ concurrency: 1 });
    const worker = holdingHandler(queue);
    await queue.enqueue(of('p', 'a', 'b', 'c'));
    await tick();
    await queue.cancel(['a', 'b']);
    expect(worker.runs.get('a')!.signal.aborted).toBe(true);
    await worker.done('a');
    expect(worker.started).toEqual(['a', 'c']);
    queue.cancelWhere((job) => job.id === 'c');
    expect(worker.runs.get('c')!.signal.aborted).toBe(true);
    await worker.done('c');
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0 });
    await queue.close();
  });

  it('closes: no new job starts, running ones are told and awaited, a backoff ends at once', async () => {
    const queue = aQueue({ concurrency: 1, backoffMs: 60_000 });
    let failing = true;
    const started: string[] = [];
    let signal: AbortSignal | undefined;
    let finish: () => void = () => undefined;
    queue.process((job) => {
      started.push(job.id);
      if (failing) {
        failing = false;
        return Promise.reject(new Error('blip'));
      }
      signal = job.signal;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await queue.enqueue(of('p', 'retried'));
    await tick();
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 1 });
    const closed = queue.close();
    await closed;
    await queue.enqueue(of('p', 'late'));
    await tick();
    expect(started).toEqual(['retried']);

    const other = aQueue({ concurrency: 1 });
    other.process((job) => {
      started.push(job.id);
      signal = job.signal;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await other.enqueue(of('p', 'long', 'next'));
    await tick();
    let done = false;
    const closing = other.close().then(() => (done = true));
    await tick();
    expect(signal?.aborted).toBe(true);
    expect(done).toBe(false);
    finish();
    await closing;
    expect(started).toEqual(['retried', 'long']);
  });

  it('waits no longer than closeGraceMs for a job that ignores its signal', async () => {
    const queue = aQueue({ closeGraceMs: 0 });
    queue.process(() => new Promise<void>(() => undefined));
    await queue.enqueue(of('p', 'stuck'));
    await tick();
    await expect(queue.close()).resolves.toBeUndefined();
    expect(await queue.isReachable()).toBe(false);
  });
});
