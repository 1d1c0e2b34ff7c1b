import { expect } from '@jest/globals';
import { FsBlobStore, type BlobStore } from '@cinetrace/blob-store';
import { ErrorCode, type PageRequest, type ProjectContext } from '@cinetrace/contracts';
import { resolveMediaTool } from '@cinetrace/media-tools';
import { aProjectContext, allPages, lavfi, makeClip, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { mediaServiceStore } from '../media-service.module';
import { MediaProber } from './media-prober';
import { MediaService } from './media.service';
import { JobQueue, type JobCounts, type JobToQueue } from '@cinetrace/job-queue';
import type { MediaJob } from './media-jobs';

/** A queue that only remembers what it was handed. */
class RecordingProbeQueue extends JobQueue<MediaJob> {
  readonly enqueued: string[] = [];
  readonly projects: Array<string | undefined> = [];
  async enqueue(jobs: JobToQueue<MediaJob>[]): Promise<void> {
    this.enqueued.push(...jobs.map((job) => job.id));
    this.projects.push(...jobs.map((job) => job.data.projectId));
  }
  process(): void {}
  async cancel(): Promise<void> {}
  async counts(): Promise<JobCounts> {
    return { waiting: 0, active: 0, delayed: 0 };
  }
  async isReachable(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

// media-service's rows on both of its stores, probed with the real ffprobe from a real blob store.
describe.each(TEST_STORES)('MediaService on %s', (kind) => {
  let store: TestStore;
  let dir: string;
  let blobs: FsBlobStore;
  let queue: RecordingProbeQueue;
  let media: MediaService;
  let prober: MediaProber;
  let clip: string;
  let projects = 0;
  let ctx: ProjectContext;

  beforeAll(async () => {
    store = await openTestStore(kind, mediaServiceStore);
    dir = mkdtempSync(join(tmpdir(), 'media-service-'));
    blobs = new FsBlobStore(join(dir, 'blobs'));
    clip = makeClip(dir, 'clip.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']);
    queue = new RecordingProbeQueue();
    media = new MediaService(store.dataSource, queue);
    prober = new MediaProber(store.dataSource, blobs, () => resolveMediaTool('ffprobe', {}), { timeoutMs: 30_000 });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    ctx = aProjectContext(`prj_${++projects}`);
  });

  const put = (source: Readable) => blobs.put(ctx.projectId, source, { maxBytes: 10_000_000 });
  const register = async (source: Readable, contentType = 'video/mp4') => media.register({ ctx, ...(await put(source)), contentType, sourceUrl: null });

  it('registers a blob as pending, queues its probe, and answers the same row for the same bytes', async () => {
    const first = await register(createReadStream(clip));
    expect(first).toMatchObject({ created: true, media: { status: 'pending', probe: null, error: null, contentType: 'video/mp4', projectId: ctx.projectId } });
    expect(queue.enqueued).toContain(first.media.id);

    const again = await register(createReadStream(clip));
    expect(again).toEqual({ created: false, media: first.media });
  });

  it('gives one row to the same bytes registered at the same moment', async () => {
    const blob = await put(createReadStream(clip));
    const answers = await Promise.all([1, 2, 3].map(() => media.register({ ctx, ...blob, contentType: 'video/mp4', sourceUrl: null })));
    expect(new Set(answers.map((a) => a.media.id)).size).toBe(1);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
  });

  it('probes a clip to ready with its duration and frame rate', async () => {
    const { media: row } = await register(createReadStream(clip));
    await prober.probe(row.id, false);
    const probed = await media.get(ctx, row.id);
    expect(probed).toMatchObject({ status: 'ready', error: null, probe: { width: 320, height: 240, fps: 24, videoCodec: 'h264', hasAudio: false } });
    expect(Math.abs(probed.probe!.durationMs! - 2000)).toBeLessThanOrEqual(42);
  });

  /** A prober whose ffprobe writes the arguments it was given to a file, then runs the real one. */
  const recordingProber = (from: BlobStore, name: string) => {
    const argsFile = join(dir, `${name}.args`);
    const wrapper = join(dir, name);
    writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexec '${resolveMediaTool('ffprobe', {}).path}' "$@"\n`, { mode: 0o755 });
    const recording = new MediaProber(store.dataSource, from, () => ({ name: 'ffprobe', path: wrapper, source: 'system' }), { timeoutMs: 30_000 });
    return { prober: recording, args: () => readFileSync(argsFile, 'utf8').trim().split('\n') };
  };

  it("gives ffprobe the filesystem store's own file (it seeks to an MP4's index), and any other store's bytes through a pipe", async () => {
    const inPlace = recordingProber(blobs, 'ffprobe-fs');
    const { media: row } = await register(createReadStream(clip));
    await inPlace.prober.probe(row.id, false);
    expect(await media.get(ctx, row.id)).toMatchObject({ status: 'ready', probe: { width: 320, height: 240 } });
    expect(inPlace.args()).toEqual(expect.arrayContaining(['file', `file:${blobs.filePath(`${ctx.projectId}/${row.sha256}`)}`]));

    // Another store (S3's driver, say) has no file to give: its bytes are streamed in.
    const elsewhere: BlobStore = {
      put: (...a) => blobs.put(...a),
      putDerived: (...a) => blobs.putDerived(...a),
      get: (...a) => blobs.get(...a),
      stat: (...a) => blobs.stat(...a),
      delete: (...a) => blobs.delete(...a),
    };
    const piped = recordingProber(elsewhere, 'ffprobe-other');
    ctx = aProjectContext(`prj_${++projects}`);
    const { media: other } = await register(createReadStream(clip));
    await piped.prober.probe(other.id, false);
    expect(await media.get(ctx, other.id)).toMatchObject({ status: 'ready', probe: { width: 320, height: 240 } });
    expect(piped.args()).toEqual(expect.arrayContaining(['pipe', 'pipe:0']));
    expect(piped.args().join(' ')).not.toContain('file:');
  });

  it('fails a media whose stored file is gone, saying so without naming paths', async () => {
    const { media: row } = await register(createReadStream(clip));
    await blobs.delete(`${ctx.projectId}/${row.sha256}`);
    await prober.probe(row.id, false);
    expect(await media.get(ctx, row.id)).toMatchObject({ status: 'failed', probe: null, error: 'the stored bytes are missing' });
  });

  it('fails bytes that are not media, with a reason', async () => {
    const { media: row } = await register(Readable.from([Buffer.from('this is not a video\n'.repeat(50))]));
    await prober.probe(row.id, false);
    const failed = await media.get(ctx, row.id);
    expect(failed).toMatchObject({ status: 'failed', probe: null, error: expect.stringMatching(/\w/) });
    // ffprobe read the stored file by its path: the reason must not show where the storage is.
    expect(failed.error).not.toContain(dir);
  });

  it('refuses a key of another project', async () => {
    const blob = await put(createReadStream(clip));
    await expect(media.register({ ctx: aProjectContext('prj_other'), ...blob, contentType: 'video/mp4', sourceUrl: null })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
    });
  });

  it("shows another project's media to nobody else, and lists by status and content type", async () => {
    const { media: video } = await register(createReadStream(clip));
    const { media: audio } = await register(Readable.from([Buffer.from('not audio either')]), 'audio/mpeg');
    await prober.probe(audio.id, false);

    await expect(media.get(aProjectContext('prj_other'), video.id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(media.blob(aProjectContext('prj_other'), video.id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    expect((await media.list(aProjectContext('prj_other'), {}, { limit: 10 })).items).toEqual([]);

    expect(await media.blob(ctx, video.id)).toEqual({ key: `${ctx.projectId}/${video.sha256}`, contentType: 'video/mp4', bytes: video.bytes });
    const all = (await allPages((page: PageRequest<string>) => media.list(ctx, {}, page), 1)).flat();
    expect(all.map((m) => m.id)).toEqual([audio.id, video.id]);
    expect((await media.list(ctx, { status: 'failed' }, { limit: 10 })).items.map((m) => m.id)).toEqual([audio.id]);
    expect((await media.list(ctx, { contentType: 'video/mp4' }, { limit: 10 })).items.map((m) => m.id)).toEqual([video.id]);
  });
});
