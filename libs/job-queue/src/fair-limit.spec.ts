import { FairLimit, type FairTurn } from './fair-limit';

/** Tasks the test finishes by name; `started` is the order they got a slot in. */
function heldTasks() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const task = (name: string) => () => {
    started.push(name);
    return new Promise<string>((resolve) => finish.set(name, () => resolve(name)));
  };
  const done = async (name: string) => {
    finish.get(name)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, task, done };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairLimit', () => {
  it("gives one project's flood at most its share of the slots: another project's task starts at once", async () => {
    const limit = new FairLimit(2, 1);
    const { started, task, done } = heldTasks();
    const flood = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => limit.run('prj_a', task(name)));
    await settle();
    expect(started).toEqual(['a1']);
    const other = limit.run('prj_b', task('b1'));
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    await done('b1');
    await expect(other).resolves.toBe('b1');
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) await done(name);
    await expect(Promise.all(flood)).resolves.toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('takes turns between projects once the slots are full: a late project waits for one task of each, not for the flood', async () => {
    const limit = new FairLimit(2, 2);
    const { started, task, done } = heldTasks();
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']) void limit.run('prj_a', task(name));
    void limit.run('prj_b', task('b1'));
    void limit.run('prj_c', task('c1'));
    await settle();
    expect(started).toEqual(['a1', 'a2']);
    await done('a1');
    await done('a2');
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1']);
    await done('b1');
    expect(started.at(-1)).toBe('a3');
    for (const name of ['c1', 'a3', 'a4', 'a5', 'a6']) await done(name);
    expect(started).toHaveLength(8);
  });

  it('never caps a project above the slots there are, and passes a failure through', async () => {
    const limit = new FairLimit(1, 4);
    await expect(limit.run('prj_a', () => Promise.reject(new Error('ffmpeg failed')))).rejects.toThrow('ffmpeg failed');
    await expect(limit.run('prj_a', () => Promise.resolve(7))).resolves.toBe(7);
    expect(limit.activeCount).toBe(0);
  });

  it('tells a task whether others of its group are in line or running as it starts, and never counts another group', async () => {
    const limit = new FairLimit(2, 2);
    const told: Record<string, boolean> = {};
    const finish = new Map<string, () => void>();
    const task = (name: string) => (turn: FairTurn) => {
      told[name] = turn.othersOfGroup;
      return new Promise<void>((resolve) => finish.set(name, resolve));
    };
    const runs = [limit.run('prj_b', task('b1')), limit.run('prj_a', task('a1')), limit.run('prj_a', task('a2')), limit.run('prj_a', task('a3'))];
    await settle();
    // b1 alone in its project; a1 started with a2 (and a3) asked behind it.
    expect(told).toEqual({ b1: false, a1: true });
    finish.get('b1')!();
    await settle();
    expect(told.a2).toBe(true); // a1 runs, a3 waits
    finish.get('a1')!();
    await settle();
    expect(told.a3).toBe(true); // a2 still runs beside it
    finish.get('a2')!();
    finish.get('a3')!();
    await Promise.all(runs);
    const alone = limit.run('prj_a', task('a4'));
    await settle();
    expect(told.a4).toBe(false);
    finish.get('a4')!();
    await alone;
  });
});
