import { expect } from '@jest/globals';
import { FairShareLimiter, FairShareRefusal } from './fair-share-limiter';

/** A task that runs until released, recording when it started. */
function gatedTasks() {
  const started: string[] = [];
  const gates: Array<() => void> = [];
  const task = (name: string) => () => {
    started.push(name);
    return new Promise<string>((resolve) => gates.push(() => resolve(name)));
  };
  /** Lets the oldest running task finish, then lets the limiter start the next. */
  const finishOne = async () => {
    gates.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, task, finishOne };
}

describe('FairShareLimiter', () => {
  it('gives a freed slot to a waiting key with nothing running before the key that floods', async () => {
    const limiter = new FairShareLimiter({ concurrency: 1, perKey: 10, total: 20 });
    const { started, task, finishOne } = gatedTasks();
    const runs = ['a1', 'a2', 'a3', 'a4'].map((name) => limiter.run('A', task(name)));
    runs.push(limiter.run('B', task('b1')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a1']);
    await finishOne();
    // B arrived after four of A's, and goes second.
    expect(started).toEqual(['a1', 'b1']);
    for (let i = 0; i < 4; i++) await finishOne();
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
    await expect(Promise.all(runs)).resolves.toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
  });

  it('takes turns between keys that both have work waiting', async () => {
    const limiter = new FairShareLimiter({ concurrency: 1, perKey: 10, total: 20 });
    const { started, task, finishOne } = gatedTasks();
    const runs = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((name) => limiter.run(name[0], task(name)));
    for (let i = 0; i < 6; i++) await finishOne();
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('refuses a key past its share while another key is still taken, and everyone past the total', async () => {
    const limiter = new FairShareLimiter({ concurrency: 1, perKey: 2, total: 3 });
    const { task, finishOne } = gatedTasks();
    const runs = [limiter.run('A', task('a1')), limiter.run('A', task('a2'))];
    await expect(limiter.run('A', task('a3'))).rejects.toEqual(new FairShareRefusal('key'));
    // Said before any task is made, for a caller that would otherwise prepare one in vain.
    expect([limiter.refusal('A'), limiter.refusal('B')]).toEqual([new FairShareRefusal('key'), undefined]);
    runs.push(limiter.run('B', task('b1')));
    await expect(limiter.run('C', task('c1'))).rejects.toEqual(new FairShareRefusal('total'));
    for (let i = 0; i < 3; i++) await finishOne();
    await Promise.all(runs);
    // Shares are given back as tasks end.
    const again = limiter.run('A', task('a4'));
    await finishOne();
    await expect(again).resolves.toBe('a4');
  });

  it('gives the slot back when a task fails', async () => {
    const limiter = new FairShareLimiter({ concurrency: 1, perKey: 1, total: 1 });
    await expect(limiter.run('A', () => Promise.reject(new Error('undecodable')))).rejects.toThrow('undecodable');
    await expect(limiter.run('A', async () => 'next')).resolves.toBe('next');
  });
});
