import { expect } from '@jest/globals';
import { probeMedia, resolveMediaTool, runMediaTool } from '@cinetrace/media-tools';
import { Api, lavfi, makeClip } from '@cinetrace/testing';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Answer, Item } from './support/api-types';
import { expectProblem } from './support/expectations';
import { ids, pageThrough } from './support/lists';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { eventually } from './support/traces';

const MEDIA = '/api/v1/media';
const PROBED_WITHIN_MS = 30_000;
/** A test uploads a clip, waits for its probe, and renders frames (ffmpeg) on a shared 2-core machine. */
const MEDIA_TEST_TIMEOUT_MS = 90_000;
const ffmpeg = resolveMediaTool('ffmpeg', {});
const ffprobe = resolveMediaTool('ffprobe', {});

/** Clips made by ffmpeg here (no binary fixture in the repository). */
interface Clips {
  /** 3 s red, 3 s blue, then 14 s of testsrc, 320×240 at 24 fps: cuts at 3 s and 6 s. */
  scenes: Buffer;
  /** One second of silence: media without a picture. */
  silence: Buffer;
}

function makeClips(dir: string): Clips {
  const scenes = makeClip(
    dir,
    'scenes.mp4',
    lavfi('color=c=red:size=320x240:rate=24:duration=3', 'color=c=blue:size=320x240:rate=24:duration=3', 'testsrc=size=320x240:rate=24:duration=14'),
    ['-filter_complex', '[0][1][2]concat=n=3:v=1:a=0', '-pix_fmt', 'yuv420p'],
  );
  const silence = makeClip(dir, 'silence.flac', lavfi('anullsrc=r=8000:cl=mono'), ['-t', '1']);
  return { scenes: readFileSync(scenes), silence: readFileSync(silence) };
}

const upload = (api: Api, bytes: Buffer, contentType: string) => api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: bytes, contentType });

async function settled(api: Api, id: string): Promise<Answer<'getMedia'>> {
  return eventually(
    `media ${id} probed`,
    async () => {
      const got = await api.get<Answer<'getMedia'>>(`${MEDIA}/${id}`);
      return got.body?.status === 'pending' ? undefined : got.body;
    },
    PROBED_WITHIN_MS,
    200,
  );
}

/** Uploads bytes and waits for their probe. */
async function probed(api: Api, bytes: Buffer, contentType: string): Promise<Answer<'getMedia'>> {
  const created = await upload(api, bytes, contentType);
  expect([200, 201]).toContain(created.status);
  return settled(api, created.body.id);
}

/** What a JPEG shows on average: ffmpeg scales it to one pixel and answers its RGB. */
async function colourOf(jpeg: Buffer): Promise<'red' | 'blue' | 'other'> {
  const args = ['-v', 'error', '-f', 'image2pipe', '-i', 'pipe:0', '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'];
  const { stdout } = await runMediaTool(ffmpeg.path, args, { timeoutMs: 10_000, maxOutputBytes: 3, input: Readable.from([jpeg]) });
  const [r, g, b] = stdout;
  if (r > 200 && g < 60 && b < 60) return 'red';
  if (b > 200 && r < 60 && g < 60) return 'blue';
  return 'other';
}

describe('Media frames, storyboard and annotations', () => {
  // CI runs three e2e suites side by side on two cores, where one ffmpeg render took past the
  // default 4 s and was answered 503 (retry later), as it should be; that answer has its unit spec.
  const ctx = useStack({ env: { FRAME_TIMEOUT_MS: '30000' } });
  let dir: string;
  let clips: Clips;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'media-frames-e2e-'));
    clips = makeClips(dir);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Where the stack's blob store keeps a media's frame (MEDIA_STORAGE=fs under DATA_DIR, in both modes). */
  const storedFrame = (media: Answer<'getMedia'>, atMs: number) => join(ctx.stack.dataDir, 'media', media.projectId, `${media.sha256}.frame-${atMs}.jpg`);

  it(
    'answers a JPEG of the instant asked for, at the clip size, stores it beside the media and serves it from there after',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const media = await probed(api, clips.scenes, 'video/mp4');
      expect(media.status).toBe('ready');

      const red = await api.get(`${MEDIA}/${media.id}/frames`, { atMs: '1500' });
      expect(red.status).toBe(200);
      expect(red.headers.get('content-type')).toBe('image/jpeg');
      expect(red.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(red.headers.get('x-content-type-options')).toBe('nosniff');
      expect(red.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      writeFileSync(join(dir, 'red.jpg'), red.bytes);
      expect(await probeMedia(ffprobe, join(dir, 'red.jpg'))).toMatchObject({ ok: true, probe: { width: 320, height: 240 } });
      expect(await colourOf(red.bytes)).toBe('red');

      const blue = await api.get(`${MEDIA}/${media.id}/frames`, { atMs: '4500' });
      expect(await colourOf(blue.bytes)).toBe('blue');

      // The first answer was stored beside the media's bytes; the second is read from there, not
      // rendered again: with other bytes put in its place, those are what comes back.
      expect(readFileSync(storedFrame(media, 1500)).equals(red.bytes)).toBe(true);
      writeFileSync(storedFrame(media, 1500), blue.bytes);
      const again = await api.get(`${MEDIA}/${media.id}/frames`, { atMs: '1500' });
      expect(again.status).toBe(200);
      expect(again.bytes.equals(blue.bytes)).toBe(true);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    'takes atMs from 0 to the probed duration, and refuses it past the end, missing or malformed (400 naming atMs)',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const media = await probed(api, clips.scenes, 'video/mp4');
      const durationMs = media.probe!.durationMs!;
      expect(Math.abs(durationMs - 20_000)).toBeLessThanOrEqual(42);

      const last = await api.get(`${MEDIA}/${media.id}/frames`, { atMs: String(durationMs) });
      expect(last.status).toBe(200);
      expect(last.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect((await api.get(`${MEDIA}/${media.id}/frames`, { atMs: '0' })).status).toBe(200);

      expectProblem(await api.get(`${MEDIA}/${media.id}/frames`, { atMs: String(durationMs + 1) }), 400, 'validation_failed', ['atMs']);
      expect(existsSync(storedFrame(media, durationMs + 1))).toBe(false);
      expectProblem(await api.get(`${MEDIA}/${media.id}/frames`), 400, 'validation_failed', ['atMs']);
      for (const atMs of ['-1', '1.5', 'abc', '']) expectProblem(await api.get(`${MEDIA}/${media.id}/frames`, { atMs }), 400, 'validation_failed', ['atMs']);
      expectProblem(await api.get(`${MEDIA}/${media.id}/frames`, { atMs: '0', at: '0' }), 400, 'validation_failed', ['at']);
      expectProblem(await api.get(`${MEDIA}/med_unknown/frames`, { atMs: '0' }), 404, 'not_found');
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    'lists the storyboard: the first frame, the cuts near 3 s and 6 s, one per 10 s after, each frame URL a JPEG',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const media = await probed(api, clips.scenes, 'video/mp4');
      const storyboard = await api.get<Answer<'getMediaStoryboard'>>(`${MEDIA}/${media.id}/storyboard`);
      expect(storyboard.status).toBe(200);
      const times = storyboard.body.data.map((frame) => frame.atMs);
      expect(times[0]).toBe(0);
      expect(times.filter((t) => Math.abs(t - 3000) <= 42 || Math.abs(t - 6000) <= 42)).toHaveLength(2);
      const gaps = [...times.slice(1), media.probe!.durationMs!].map((t, i) => t - times[i]);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
      expect(times).toHaveLength(4); // 0, the two cuts, and one 10 s after the second
      for (const frame of storyboard.body.data) {
        expect(frame.frameUrl).toBe(`${MEDIA}/${media.id}/frames?atMs=${frame.atMs}`);
        const jpeg = await api.get(frame.frameUrl);
        expect(jpeg.status).toBe(200);
        expect(jpeg.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      }
      // The red scene's keyframe shows red; the blue one's, blue.
      const at = (ms: number) =>
        readFileSync(
          storedFrame(
            media,
            times.find((t) => Math.abs(t - ms) <= 42)!,
          ),
        );
      expect(await colourOf(at(3000))).toBe('blue');
      expect(await colourOf(at(0))).toBe('red');
      expect(await colourOf(at(6000))).toBe('other');

      // Computed once: the same keyframes again.
      expect((await api.get<Answer<'getMediaStoryboard'>>(`${MEDIA}/${media.id}/storyboard`)).body).toEqual(storyboard.body);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    'refuses frames and storyboards of media without a probed picture (409 media_not_ready)',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const failed = await probed(api, Buffer.from('this is a text file, not a video\n'.repeat(40)), 'video/mp4');
      expect(failed.status).toBe('failed');
      const audio = await probed(api, clips.silence, 'audio/flac');
      expect(audio).toMatchObject({ status: 'ready', probe: { width: null, hasAudio: true, durationMs: 1000 } });
      for (const media of [failed, audio]) {
        expectProblem(await api.get(`${MEDIA}/${media.id}/frames`, { atMs: '0' }), 409, 'media_not_ready');
        expectProblem(await api.get(`${MEDIA}/${media.id}/storyboard`), 409, 'media_not_ready');
      }
      // Annotations are time-coded: audio has a duration, a failed media none.
      expectProblem(await api.post(`${MEDIA}/${failed.id}/annotations`, { startMs: 0, endMs: 0, label: 'x' }), 409, 'media_not_ready');
      expect((await api.post(`${MEDIA}/${audio.id}/annotations`, { startMs: 0, endMs: 1000, label: 'silence' })).status).toBe(201);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    'creates annotations within the duration and lists them by startMs, then id, page by page',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const media = await probed(api, clips.scenes, 'video/mp4');
      const path = `${MEDIA}/${media.id}/annotations`;
      const late = await api.post<Answer<'createMediaAnnotation', 201>>(path, { startMs: 6000, endMs: 9000, label: 'testsrc' });
      const red = await api.post<Answer<'createMediaAnnotation', 201>>(path, { startMs: 0, endMs: 3000, label: 'red', score: 0.5, comment: 'all red' });
      const sameStart = await api.post<Answer<'createMediaAnnotation', 201>>(path, { startMs: 0, endMs: 0, label: '  a single frame  ' });
      expect(red.status).toBe(201);
      expect(red.body).toEqual({
        id: expect.stringMatching(/^man_/),
        mediaId: media.id,
        startMs: 0,
        endMs: 3000,
        label: 'red',
        score: 0.5,
        comment: 'all red',
        createdAt: expect.any(String),
      });
      expect(sameStart.body).toMatchObject({ label: 'a single frame', score: null, comment: null });
      const endToEnd = await api.post(path, { startMs: 0, endMs: media.probe!.durationMs!, label: 'whole' });
      expect(endToEnd.status).toBe(201);

      const { items, pages } = await pageThrough<Item<'listMediaAnnotations'>>(api, path, { limit: 1 });
      expect(pages).toBe(4);
      expect(ids(items)).toEqual([red.body.id, sameStart.body.id, (endToEnd.body as { id: string }).id, late.body.id]);
      expect((await api.get<Answer<'listMediaAnnotations'>>(path)).body.data.map((a) => a.startMs)).toEqual([0, 0, 0, 6000]);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a range outside the duration and every malformed field, naming it (400)',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const media = await probed(api, clips.scenes, 'video/mp4');
      const path = `${MEDIA}/${media.id}/annotations`;
      const end = media.probe!.durationMs!;
      const valid = { startMs: 1000, endMs: 2000, label: 'blur' };
      const refused: [Record<string, unknown>, string][] = [
        [{ ...valid, endMs: end + 1 }, 'endMs'],
        [{ ...valid, startMs: end + 1, endMs: end + 2 }, 'startMs'],
        [{ ...valid, startMs: 3000 }, 'endMs'],
        [{ ...valid, startMs: -1 }, 'startMs'],
        [{ ...valid, startMs: 1.5 }, 'startMs'],
        [{ ...valid, endMs: '2000' }, 'endMs'],
        [{ ...valid, label: '' }, 'label'],
        [{ ...valid, label: '   ' }, 'label'],
        [{ ...valid, label: 'x'.repeat(101) }, 'label'],
        [{ ...valid, score: 1.5 }, 'score'],
        [{ ...valid, score: -0.1 }, 'score'],
        [{ ...valid, score: null }, 'score'],
        [{ ...valid, comment: 'é'.repeat(2049) }, 'comment'],
        [{ ...valid, colour: 'red' }, 'colour'],
        [{ startMs: 0, endMs: 1 }, 'label'],
      ];
      for (const [body, field] of refused) expectProblem(await api.post(path, body), 400, 'validation_failed', [field]);
      expect((await api.post(path, { ...valid, label: 'x'.repeat(100), score: 1, comment: 'é'.repeat(2048) })).status).toBe(201);
      expect((await api.get<Answer<'listMediaAnnotations'>>(path)).body.data).toHaveLength(1);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    'stores an annotation once for one Idempotency-Key',
    async () => {
      const { api } = await inNewProject(ctx.api);
      const media = await probed(api, clips.scenes, 'video/mp4');
      const path = `${MEDIA}/${media.id}/annotations`;
      const headers = { 'Idempotency-Key': 'annotate-once' };
      const first = await api.post<Answer<'createMediaAnnotation', 201>>(path, { startMs: 10, endMs: 20, label: 'once' }, { headers });
      const replay = await api.post<Answer<'createMediaAnnotation', 201>>(path, { startMs: 10, endMs: 20, label: 'once' }, { headers });
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect((await api.get<Answer<'listMediaAnnotations'>>(path)).body.data).toHaveLength(1);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );

  it(
    "keeps a project's media from another project's key: no frame, storyboard or annotation (404)",
    async () => {
      const owner = await inNewProject(ctx.api);
      const attacker = await inNewProject(ctx.api);
      const media = await probed(owner.api, clips.scenes, 'video/mp4');
      await owner.api.post(`${MEDIA}/${media.id}/annotations`, { startMs: 0, endMs: 10, label: 'private' });

      expectProblem(await attacker.api.get(`${MEDIA}/${media.id}/frames`, { atMs: '0' }), 404, 'not_found');
      expectProblem(await attacker.api.get(`${MEDIA}/${media.id}/storyboard`), 404, 'not_found');
      expectProblem(await attacker.api.get(`${MEDIA}/${media.id}/annotations`), 404, 'not_found');
      expectProblem(await attacker.api.post(`${MEDIA}/${media.id}/annotations`, { startMs: 0, endMs: 10, label: 'mine' }), 404, 'not_found');
      expect((await owner.api.get<Answer<'listMediaAnnotations'>>(`${MEDIA}/${media.id}/annotations`)).body.data.map((a) => a.label)).toEqual(['private']);
    },
    MEDIA_TEST_TIMEOUT_MS,
  );
});
