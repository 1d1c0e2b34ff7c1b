import { expect } from '@jest/globals';
import { Api, lavfi, makeClip } from '@cinetrace/testing';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectProblem } from './support/expectations';
import { ids, pageThrough } from './support/lists';
import { MEDIA_STORAGES, useMediaStorage } from './support/media-storage';
import { inNewProject } from './support/prompts';
import { valueOf } from './support/metrics';
import { useStack } from './support/stack-hooks';
import { eventually } from './support/traces';
import { Answer, Item } from './support/api-types';

// A probe may take seconds on a busy machine (PROBED_WITHIN_MS), and S3Mock's first requests (a fresh JVM) more.
jest.setTimeout(60_000);

const MEDIA = '/api/v1/media';
/** Small, so that one past it is cheap to send. */
const MEDIA_MAX_BYTES = 1024 * 1024;
const PROBED_WITHIN_MS = 30_000;

/** A 2 s 320×240 24 fps clip made by ffmpeg here: no binary fixture in the repository. */
function aClip(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'media-e2e-'));
  try {
    return readFileSync(makeClip(dir, 'clip.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const upload = (api: Api, bytes: Buffer, contentType = 'video/mp4') => api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: bytes, contentType });

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

/** A server that answers `bytes` once, then 404 (a provider's signed URL that expires). */
async function anExpiringSource(bytes: Buffer): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_, res) => {
    hits++;
    if (hits > 1) res.writeHead(404).end('expired');
    else res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/renders/clip.mp4?sig=abc`,
    hits: () => hits,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

describe.each(MEDIA_STORAGES)('Media on MEDIA_STORAGE=%s: upload, probe, content (OUTBOUND_ALLOW_PRIVATE for a local source)', (kind) => {
  const storage = useMediaStorage(kind);
  const ctx = useStack(() => ({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', MEDIA_MAX_BYTES: String(MEDIA_MAX_BYTES), ...storage.env() } }));
  let clip: Buffer;
  beforeAll(() => {
    clip = aClip();
  });

  it("keeps a project's media from another project's key: not read, not listed, not played", async () => {
    const owner = await inNewProject(ctx.api);
    const attacker = await inNewProject(ctx.api);
    const created = await upload(owner.api, clip);
    expect(created.status).toBe(201);
    const { id } = created.body;

    expectProblem(await attacker.api.get(`${MEDIA}/${id}`), 404, 'not_found');
    expectProblem(await attacker.api.get(`${MEDIA}/${id}/content`), 404, 'not_found');
    expect((await attacker.api.get<Answer<'listMedia'>>(MEDIA)).body).toEqual({ data: [], nextCursor: null });
    // The same bytes in the attacker's project are a media of its own, not the owner's.
    const own = await upload(attacker.api, clip);
    expect(own.status).toBe(201);
    expect(own.body.id).not.toBe(id);
    expect(own.body.projectId).toBe(attacker.projectId);
  });

  it('stores an upload as pending (201), probes it to ready, and answers the same bytes again with the same media (200)', async () => {
    const { api, projectId } = await inNewProject(ctx.api);
    const probesBefore = await valueOf(ctx.stack, 'cinetrace_media_probe_duration_seconds_count', { outcome: 'ready' });
    const created = await upload(api, clip);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${MEDIA}/${created.body.id}`);
    expect(created.body).toMatchObject({
      projectId,
      sha256: createHash('sha256').update(clip).digest('hex'),
      contentType: 'video/mp4',
      bytes: clip.length,
      sourceUrl: null,
      status: 'pending',
      probe: null,
      error: null,
    });

    const ready = await settled(api, created.body.id);
    expect(ready).toMatchObject({ status: 'ready', error: null, probe: { width: 320, height: 240, fps: 24, hasAudio: false, videoCodec: 'h264', audioCodec: null } });
    expect(Math.abs(ready.probe!.durationMs! - 2000)).toBeLessThanOrEqual(42);
    // The probe job is measured where media-service serves its metrics (all-in-one: the process).
    expect(await valueOf(ctx.stack, 'cinetrace_media_probe_duration_seconds_count', { outcome: 'ready' })).toBeGreaterThan(probesBefore);
    expect(await valueOf(ctx.stack, 'cinetrace_media_probe_duration_seconds_sum', { outcome: 'ready' })).toBeGreaterThan(0);

    const again = await upload(api, clip);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(ready);
    // Kept once, in the storage MEDIA_STORAGE names (a bucket's object, not a file beside it).
    expect(await storage.holdings(ctx.stack, projectId)).toEqual([`${projectId}/${ready.sha256}`]);

    const listed = await api.get<Answer<'listMedia'>>(MEDIA, { args: JSON.stringify({ status: 'ready', contentType: 'video/mp4' }) });
    expect(listed.body.data.map((m) => m.id)).toEqual([created.body.id]);
    expect((await api.get<Answer<'listMedia'>>(MEDIA, { status: 'failed' })).body.data).toEqual([]);
    expectProblem(await api.get(MEDIA, { status: 'done' }), 400, 'validation_failed', ['status']);
  });

  it('answers a GET with Prefer: wait once the media is probed (or failed), so a client need not poll', async () => {
    const { api } = await inNewProject(ctx.api);
    const created = await upload(api, clip);
    expect(created.body.status).toBe('pending');
    const waited = await api.get<Answer<'getMedia'>>(`${MEDIA}/${created.body.id}`, undefined, { headers: { prefer: 'wait=10' } });
    expect(waited.status).toBe(200);
    expect(waited.body).toMatchObject({ id: created.body.id, status: 'ready', probe: { width: 320, height: 240 } });
    expect(waited.headers.get('preference-applied')).toBe('wait');

    const text = await upload(api, Buffer.from('not a clip either\n'.repeat(40)));
    const failed = await api.get<Answer<'getMedia'>>(`${MEDIA}/${text.body.id}`, undefined, { headers: { prefer: 'wait' } });
    expect(failed.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/\w/) });
    expect(failed.headers.get('preference-applied')).toBe('wait');

    // Without the preference the answer comes at once, as it stands; another project's media is still a 404 under a wait.
    expect((await api.get(`${MEDIA}/${created.body.id}`)).headers.get('preference-applied')).toBeNull();
    const other = await inNewProject(ctx.api);
    expectProblem(await other.api.get(`${MEDIA}/${created.body.id}`, undefined, { headers: { prefer: 'wait=2' } }), 404, 'not_found');
  });

  it('lists newest first, page by page, each media once', async () => {
    const { api } = await inNewProject(ctx.api);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await upload(api, Buffer.from(`not a picture ${i}`), 'image/png')).body.id);
    const { items, pages } = await pageThrough<Item<'listMedia'>>(api, MEDIA, { limit: 1 });
    expect(ids(items)).toEqual(made.reverse());
    expect(pages).toBe(3);
    expect(items.every((m) => m.contentType === 'image/png')).toBe(true);
  });

  it('fails bytes that are not media, with a reason', async () => {
    const { api } = await inNewProject(ctx.api);
    const failedBefore = await valueOf(ctx.stack, 'cinetrace_media_probe_duration_seconds_count', { outcome: 'failed' });
    const created = await upload(api, Buffer.from('this is a text file, not a video\n'.repeat(40)));
    expect(created.status).toBe(201);
    const failed = await settled(api, created.body.id);
    expect(failed).toMatchObject({ status: 'failed', probe: null, error: expect.stringMatching(/\w/) });
    expect(await valueOf(ctx.stack, 'cinetrace_media_probe_duration_seconds_count', { outcome: 'failed' })).toBeGreaterThan(failedBefore);
  });

  it('plays the content whole (200) or by Range (206), and refuses a range past the end (416)', async () => {
    const { api } = await inNewProject(ctx.api);
    const { id } = (await upload(api, clip)).body;

    const whole = await api.get(`${MEDIA}/${id}/content`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.bytes.equals(clip)).toBe(true);

    const first = await api.get(`${MEDIA}/${id}/content`, undefined, { headers: { Range: 'bytes=0-1' } });
    expect(first.status).toBe(206);
    expect(first.bytes).toEqual(clip.subarray(0, 2));
    expect(first.headers.get('content-range')).toBe(`bytes 0-1/${clip.length}`);

    const last = await api.get(`${MEDIA}/${id}/content`, undefined, { headers: { Range: 'bytes=-10' } });
    expect(last.status).toBe(206);
    expect(last.bytes).toEqual(clip.subarray(clip.length - 10));

    const past = await api.get(`${MEDIA}/${id}/content`, undefined, { headers: { Range: `bytes=${clip.length}-` } });
    expectProblem(past, 416, 'range_not_satisfiable');
    expect(past.headers.get('content-range')).toBe(`bytes */${clip.length}`);
  });

  it('copies a { url } before answering, so it still plays once the source has expired', async () => {
    const { api } = await inNewProject(ctx.api);
    const source = await anExpiringSource(clip);
    try {
      const created = await api.post<Answer<'createMedia'>>(MEDIA, { url: source.url });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ sourceUrl: source.url, contentType: 'video/mp4', bytes: clip.length });
      expect((await fetch(source.url)).status).toBe(404);

      const content = await api.get(`${MEDIA}/${created.body.id}/content`);
      expect(content.status).toBe(200);
      expect(content.bytes.equals(clip)).toBe(true);
      expect(await settled(api, created.body.id)).toMatchObject({ status: 'ready', probe: { fps: 24 } });

      // The expired URL itself now fails, naming the field.
      expectProblem(await api.post(MEDIA, { url: source.url }), 400, 'validation_failed', ['url']);
    } finally {
      await source.close();
    }
  });

  it('refuses an upload past MEDIA_MAX_BYTES (413) and stores nothing of it', async () => {
    const { api, projectId } = await inNewProject(ctx.api);
    expectProblem(await upload(api, Buffer.alloc(MEDIA_MAX_BYTES + 1, 7)), 413, 'payload_too_large');
    expect((await api.get<Answer<'listMedia'>>(MEDIA)).body.data).toEqual([]);
    expect(await storage.holdings(ctx.stack, projectId)).toEqual([]);
  });

  it('stops a streamed upload without Content-Length once it passes MEDIA_MAX_BYTES (413), storing nothing', async () => {
    const { api, projectId, key } = await inNewProject(ctx.api);
    const chunk = Buffer.alloc(64 * 1024, 3);
    let sent = 0;
    // A body of unknown length (chunked): only the stream's count can refuse it.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MEDIA_MAX_BYTES + 4 * chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(new URL(MEDIA, ctx.stack.baseUrl), {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.stack.apiKey}`, 'X-Project-Key': key, 'Content-Type': 'video/mp4' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await api.get<Answer<'listMedia'>>(MEDIA)).body.data).toEqual([]);
    expect(await storage.holdings(ctx.stack, projectId)).toEqual([]);
  });

  it('refuses a body of another type, and a { url } that is not a URL, naming what to fix', async () => {
    const { api } = await inNewProject(ctx.api);
    expectProblem(await api.request('POST', MEDIA, { raw: 'hello', contentType: 'text/plain' }), 415, 'unsupported_media_type');
    expectProblem(await api.post(MEDIA, { url: 'ftp://example.com/a.mp4' }), 400, 'validation_failed', ['url']);
    expectProblem(await api.post(MEDIA, { url: 'https://example.com/a.mp4', extra: 1 }), 400, 'validation_failed', ['extra']);
    expectProblem(await api.get(`${MEDIA}/med_unknown`), 404, 'not_found');
  });
});

describe('Media: outbound rules without OUTBOUND_ALLOW_PRIVATE', () => {
  const ctx = useStack();

  it('refuses a { url } at a private address (400 naming url) and fetches nothing', async () => {
    const { api } = await inNewProject(ctx.api);
    const source = await anExpiringSource(Buffer.from('x'));
    try {
      expectProblem(await api.post(MEDIA, { url: source.url }), 400, 'validation_failed', ['url']);
      expectProblem(await api.post(MEDIA, { url: 'http://169.254.169.254/latest/meta-data' }), 400, 'validation_failed', ['url']);
      expect(source.hits()).toBe(0);
    } finally {
      await source.close();
    }
  });
});
