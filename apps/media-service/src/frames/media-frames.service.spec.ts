import { blobStoreFrom, type BlobStore } from '@cinetrace/blob-store';
import { MediaStorageEnv, validateEnv } from '@cinetrace/config';
import { DomainError, ErrorCode, type ProjectContext } from '@cinetrace/contracts';
import { resolveMediaTool } from '@cinetrace/media-tools';
import { aProjectContext, lavfi, makeClip, openTestStore, startS3Server, type S3Server, type TestStore } from '@cinetrace/testing';
import { chmodSync, createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { mediaServiceStore } from '../media-service.module';
import { InProcessJobQueue } from '@cinetrace/job-queue';
import { mediaJobSettings } from '../media/media-jobs';
import { MediaProber } from '../media/media-prober';
import { MediaService } from '../media/media.service';
import { MediaFramesService } from './media-frames.service';

/** The storage drivers a frame is rendered from and stored in: S3 needs a temporary copy for ffmpeg. */
const drivers: [string, (dir: string) => Promise<{ blobs: BlobStore; close(): Promise<void> }>][] = [
  ['the filesystem storage', async (dir) => ({ blobs: blobStoreFrom({ ...validateEnv(MediaStorageEnv, {}), DATA_DIR: dir }), close: async () => undefined })],
  [
    'an S3 storage (S3Mock)',
    async () => {
      const server: S3Server = await startS3Server('frames-test');
      return { blobs: blobStoreFrom(validateEnv(MediaStorageEnv, { MEDIA_STORAGE: 's3', ...server.env })), close: () => server.remove() };
    },
  ],
];

describe.each(drivers)('MediaFramesService on %s', (_, makeStorage) => {
  let dir: string;
  let store: TestStore;
  let storage: { blobs: BlobStore; close(): Promise<void> };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'media-frames-'));
    store = await openTestStore('sqlite', mediaServiceStore);
    storage = await makeStorage(dir);
  }, 180_000);
  afterAll(async () => {
    await storage?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A 2 s clip of the project, stored, registered and probed: ready for frames. */
  async function probedClip(ctx: ProjectContext, name: string) {
    const clip = makeClip(dir, name, lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']);
    const put = await storage.blobs.put(ctx.projectId, createReadStream(clip), { maxBytes: 10_000_000 });
    const media = (
      await new MediaService(store.dataSource, new InProcessJobQueue(mediaJobSettings('probes', 'Probe', 1))).register({ ctx, ...put, contentType: 'video/mp4', sourceUrl: null })
    ).media;
    await new MediaProber(store.dataSource, storage.blobs, () => resolveMediaTool('ffprobe', {}), { timeoutMs: 30_000 }).probe(media.id, true);
    return { put, media };
  }

  it('renders a frame once, stores it beside the media, and shares one render between two requests', async () => {
    const ctx = aProjectContext('prj_frames');
    const { put, media } = await probedClip(ctx, 'clip.mp4');

    let renders = 0;
    const ffmpeg = resolveMediaTool('ffmpeg', {});
    const frames = new MediaFramesService(store.dataSource, storage.blobs, () => (renders++, ffmpeg), { concurrency: 2, timeoutMs: 20_000 });

    const first = await frames.frame(ctx, media.id, 1000);
    expect(first.key).toBe(`${put.key}.frame-1000.jpg`);
    const jpeg = await buffer((await storage.blobs.get(first.key)).body);
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(jpeg.length).toBe(first.bytes);
    expect(await frames.frame(ctx, media.id, 1000)).toEqual(first);
    expect(renders).toBe(1);

    const [a, b] = await Promise.all([frames.frame(ctx, media.id, 1500), frames.frame(ctx, media.id, 1500)]);
    expect(a).toEqual(b);
    expect(renders).toBe(2);

    await expect(frames.frame(ctx, media.id, 2500)).rejects.toEqual(
      expect.objectContaining({ code: ErrorCode.ValidationFailed, errors: [expect.objectContaining({ path: 'atMs' })] }),
    );
    await expect(frames.frame(aProjectContext('prj_other'), media.id, 0)).rejects.toBeInstanceOf(DomainError);
    expect(renders).toBe(2);
  }, 120_000);

  it('answers 503 (retry later) and stores nothing when a render outlasts its time', async () => {
    const ctx = aProjectContext('prj_frames_slow');
    const { put, media } = await probedClip(ctx, 'slow.mp4');
    // An ffmpeg that never answers: the machine too busy, or a tool hung.
    const hung = join(dir, 'hung-ffmpeg');
    writeFileSync(hung, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(hung, 0o755);
    const frames = new MediaFramesService(store.dataSource, storage.blobs, () => ({ name: 'ffmpeg', path: hung, source: 'environment' }), { concurrency: 1, timeoutMs: 500 });

    const started = Date.now();
    await expect(frames.frame(ctx, media.id, 1000)).rejects.toEqual(expect.objectContaining({ code: ErrorCode.Unavailable }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await storage.blobs.stat(`${put.key}.frame-1000.jpg`)).toBeUndefined();
  }, 120_000);

  it("renders a project's frames at a lower CPU priority while others of that project wait, another project's lone frame at the usual one", async () => {
    const flooding = aProjectContext('prj_frames_flooding');
    const lone = aProjectContext('prj_frames_lone');
    const floodingClip = (await probedClip(flooding, 'flooding.mp4')).media;
    const loneClip = (await probedClip(lone, 'lone.mp4')).media;
    // An ffmpeg that writes down its own nice value (once its parent had time to set it) and its output file, then renders.
    const log = join(dir, `niceness-${Date.now()}.log`);
    const recording = join(dir, 'recording-ffmpeg');
    writeFileSync(recording, `#!/bin/sh\nsleep 0.3\necho "$(ps -o ni= -p $$) $*" >> ${log}\nexec ${resolveMediaTool('ffmpeg', {}).path} "$@"\n`);
    chmodSync(recording, 0o755);
    const frames = new MediaFramesService(store.dataSource, storage.blobs, () => ({ name: 'ffmpeg', path: recording, source: 'environment' }), {
      concurrency: 2,
      perProject: 1,
      timeoutMs: 20_000,
    });

    await Promise.all([...[200, 400, 600].map((atMs) => frames.frame(flooding, floodingClip.id, atMs)), frames.frame(lone, loneClip.id, 100)]);

    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => ({ niceness: Number(line.trim().split(/\s+/)[0]), args: line }));
    const ss = (run: { args: string }) => /-ss (\S+)/.exec(run.args)?.[1];
    // Which project a render is of, by its instant: the lone project asked 0.1 s only. The log is in
    // the order the renders started (the flooding project's run one at a time).
    const loneRuns = runs.filter((run) => ss(run) === '0.100');
    const floodingRuns = runs.filter((run) => ss(run) !== '0.100');
    expect(loneRuns.map((run) => run.niceness)).toEqual([0]);
    expect(floodingRuns).toHaveLength(3);
    // Its second render started while its third waited: lowered; its last ran with none of its own in line: as usual.
    // (Its first may start before the others are asked.)
    expect(floodingRuns.slice(1).map((run) => run.niceness)).toEqual([10, 0]);
  }, 120_000);
});
