import { aProjectContext, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { Readable } from 'node:stream';
import { FsBlobStore } from '@cinetrace/blob-store';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaServiceStore } from '../media-service.module';
import { MediaProber } from './media-prober';
import { MediaService } from './media.service';
import { JobQueue, type JobCounts, type JobToQueue } from '@cinetrace/job-queue';
import type { MediaJob } from './media-jobs';
import { ProbeSweeper } from './probe-sweeper';

/** A queue that refuses work, as Redis does while it is away, until told otherwise. */
class FlakyProbeQueue extends JobQueue<MediaJob> {
  down = true;
  readonly enqueued: string[] = [];
  readonly projects: Array<string | undefined> = [];
  async enqueue(jobs: JobToQueue<MediaJob>[]): Promise<void> {
    if (this.down) throw new Error('Redis is away');
    this.enqueued.push(...jobs.map((job) => job.id));
    this.projects.push(...jobs.map((job) => job.data.projectId));
  }
  process(): void {}
  async cancel(): Promise<void> {}
  async counts(): Promise<JobCounts> {
    return { waiting: 0, active: 0, delayed: 0 };
  }
  async isReachable(): Promise<boolean> {
    return !this.down;
  }
  async close(): Promise<void> {}
}

// Nothing accepted stays pending: a media whose probe could not be queued is queued by the sweep.
describe.each(TEST_STORES)('ProbeSweeper on %s', (kind) => {
  let store: TestStore;
  let dir: string;
  beforeAll(async () => {
    store = await openTestStore(kind, mediaServiceStore);
    dir = mkdtempSync(join(tmpdir(), 'probe-sweeper-'));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers while the queue is away, then hands every pending media to it, and no settled one', async () => {
    const queue = new FlakyProbeQueue();
    const media = new MediaService(store.dataSource, queue);
    const blobs = new FsBlobStore(join(dir, 'blobs'));
    const ctx = aProjectContext(`prj_sweep_${kind}`);
    const register = async (text: string) => {
      const blob = await blobs.put(ctx.projectId, Readable.from([Buffer.from(text)]), { maxBytes: 1000 });
      return (await media.register({ ctx, ...blob, contentType: 'video/mp4', sourceUrl: null })).media;
    };
    const waiting = await register('first');
    const settled = await register('second');
    await new MediaProber(store.dataSource, blobs, () => ({ name: 'ffprobe', path: '/bin/false', source: 'system' }), { timeoutMs: 1000 }).probe(settled.id, true);
    expect(queue.enqueued).toEqual([]);

    queue.down = false;
    await new ProbeSweeper(store.dataSource, queue, {} as MediaProber).sweep();
    expect(queue.enqueued).toContain(waiting.id);
    // Each with its project: the queue shares its slots between projects.
    expect(queue.projects[queue.enqueued.indexOf(waiting.id)]).toBe(ctx.projectId);
    expect(queue.enqueued).not.toContain(settled.id);
  });
});
