import { expect } from '@jest/globals';
import { OffsetCommitter, type PartitionOffset } from './offset-committer';

const at = (partition: number, offset: number): PartitionOffset => ({ topic: 't', partition, offset: String(offset) });

describe('OffsetCommitter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function recording() {
    const commits: PartitionOffset[][] = [];
    return { commits, commit: async (offsets: PartitionOffset[]) => void commits.push(offsets) };
  }

  it('commits what was stored within the interval once, each partition at its latest offset', async () => {
    const { commits, commit } = recording();
    const committer = new OffsetCommitter(commit, 200);
    committer.add([at(0, 10), at(1, 5)]);
    committer.add([at(0, 20)]);
    committer.add([at(2, 7)]);
    expect(commits).toEqual([]);

    await jest.advanceTimersByTimeAsync(200);
    expect(commits).toEqual([[at(0, 20), at(1, 5), at(2, 7)]]);

    committer.add([at(1, 9)]);
    await jest.advanceTimersByTimeAsync(199);
    expect(commits).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([[at(0, 20), at(1, 5), at(2, 7)], [at(1, 9)]]);
  });

  it('commits nothing when nothing was stored', async () => {
    const { commits, commit } = recording();
    const committer = new OffsetCommitter(commit, 200);
    await jest.advanceTimersByTimeAsync(1000);
    await committer.flush();
    expect(commits).toEqual([]);
  });

  it('flush commits at once what waits, and nothing is committed twice', async () => {
    const { commits, commit } = recording();
    const committer = new OffsetCommitter(commit, 200);
    committer.add([at(0, 3)]);
    await committer.flush();
    expect(commits).toEqual([[at(0, 3)]]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(commits).toHaveLength(1);
  });

  it('keeps commits in order, and goes on after one that failed', async () => {
    const order: string[] = [];
    let release!: () => void;
    let calls = 0;
    const committer = new OffsetCommitter(async (offsets) => {
      calls++;
      if (calls === 1) {
        await new Promise<void>((resolve) => (release = resolve));
        order.push(`slow ${offsets[0].offset}`);
        throw new Error('the coordinator moved');
      }
      order.push(`then ${offsets[0].offset}`);
    }, 200);
    committer.add([at(0, 1)]);
    await jest.advanceTimersByTimeAsync(200);
    committer.add([at(0, 2)]);
    const flushed = committer.flush();
    await jest.advanceTimersByTimeAsync(0);
    expect(order).toEqual([]);
    release();
    await flushed;
    expect(order).toEqual(['slow 1', 'then 2']);
  });
});
