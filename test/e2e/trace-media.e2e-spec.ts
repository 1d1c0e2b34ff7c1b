import { expect } from '@jest/globals';
import { Api, lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Answer } from './support/api-types';
import { expectProblem } from './support/expectations';
import { valueOf } from './support/metrics';
import { exportSpans, otlpExporter, recordSpans } from './support/otlp';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { anId, at, eventually, ingest, readEventually, TRACE_TEST_TIMEOUT_MS, type TraceView } from './support/traces';

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

const MEDIA = '/api/v1/media';
/** Copy, register and probe a 2 s clip: seconds, on a busy machine a few more. */
const COPIED_WITHIN_MS = 40_000;
/** ffprobe's duration of a 2 s 24 fps clip: 2000 ms ± a frame. */
const CLIP_SECONDS = 2;
const ONE_FRAME_SECONDS = 0.042;

/** A 2 s 320×240 24 fps clip made by ffmpeg here: no binary fixture in the repository. */
function aClip(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'trace-media-e2e-'));
  try {
    return readFileSync(makeClip(dir, 'clip.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Source {
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}

/** A server that answers `bytes` once, then 404 (a provider's signed URL that expires); `bytes` undefined: 404 from the start. */
async function anExpiringSource(bytes: Buffer | undefined): Promise<Source> {
  let hits = 0;
  const server: Server = createServer((_, res) => {
    hits++;
    if (!bytes || hits > 1) res.writeHead(404).end('expired');
    else res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/renders/${anId('clip')}.mp4?sig=abc`,
    hits: () => hits,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

type SpanView = TraceView['spans'][number];
type Output = { url?: string; contentType?: string; mediaId?: string } & Record<string, unknown>;

const spanOf = (trace: TraceView, id: string): SpanView => trace.spans.find((s) => s.id === id)!;
const outputOf = (span: SpanView) => span.output as Output;

const probedSeconds = (span: SpanView) => Math.abs((span.usage?.videoSeconds ?? 0) - CLIP_SECONDS) <= ONE_FRAME_SECONDS;

/** The trace once every span listed has its media written back and, if asked, the clip's probed seconds. */
function readWhenCopied(api: Api, traceId: string, spanIds: string[], probed = true): Promise<TraceView> {
  return readEventually(
    api,
    traceId,
    (trace) => spanIds.every((id) => typeof outputOf(spanOf(trace, id))?.mediaId === 'string' && (!probed || probedSeconds(spanOf(trace, id)))),
    COPIED_WITHIN_MS,
  );
}

describe('Media in trace outputs: copied, named by mediaId, counted in usage.videoSeconds (OUTBOUND_ALLOW_PRIVATE for a local source)', () => {
  // Its own stack, as below: the tests count the copies the whole stack failed meanwhile.
  const ctx = useStack({ own: true, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  let clip: Buffer;
  beforeAll(() => {
    clip = aClip();
  });

  it('copies a span output before its URL expires, once for two spans naming it: mediaId beside the url, the probed seconds in usage, playable from the copy', async () => {
    const { api, projectId } = await inNewProject(ctx.api);
    const source = await anExpiringSource(clip);
    try {
      const traceId = anId('tr');
      const video = { url: source.url, contentType: 'video/mp4', width: 320 };
      await ingest(api, {
        id: traceId,
        name: 'render',
        startTime: at(0),
        output: [video],
        spans: [
          // The client's own estimate: the probed duration replaces it.
          { id: 'render', name: 'render', kind: 'generation', startTime: at(0), endTime: at(900), output: video, usage: { videoSeconds: 5, images: 1 } },
          { id: 'upscale', name: 'upscale', startTime: at(100), endTime: at(800), output: { ...video }, usage: { videoSeconds: 5 } },
          { id: 'caption', name: 'caption', startTime: at(200), output: { text: 'a fox at dawn', url: source.url } },
        ],
      });

      const trace = await readWhenCopied(api, traceId, ['render', 'upscale']);
      const render = spanOf(trace, 'render');
      const mediaId = outputOf(render).mediaId!;
      expect(outputOf(render)).toEqual({ ...video, mediaId });
      // One URL, one copy: the source answered once, and the second span names the same media.
      expect(outputOf(spanOf(trace, 'upscale'))).toEqual({ ...video, mediaId });
      expect(source.hits()).toBe(1);
      // Without a media content type an output names no media: left as sent.
      expect(outputOf(spanOf(trace, 'caption'))).toEqual({ text: 'a fox at dawn', url: source.url });

      expect(render.usage!.images).toBe(1);
      expect(spanOf(trace, 'upscale').usage!.videoSeconds).toBe(render.usage!.videoSeconds);
      // The trace's usage is its spans' sum, so it follows the write-back.
      expect(trace.usage.videoSeconds).toBeCloseTo(2 * render.usage!.videoSeconds, 6);
      const traceOutput = await readEventually(api, traceId, (t) => typeof (t.output as Output[])[0]?.mediaId === 'string', COPIED_WITHIN_MS);
      expect(traceOutput.output).toEqual([{ ...video, mediaId }]);

      // The provider's URL has expired; our copy plays.
      expect((await fetch(source.url)).status).toBe(404);
      const content = await api.get(`${MEDIA}/${mediaId}/content`);
      expect(content.status).toBe(200);
      expect(content.headers.get('content-type')).toBe('video/mp4');
      expect(content.bytes.equals(clip)).toBe(true);
      const media = await api.get<Answer<'getMedia'>>(`${MEDIA}/${mediaId}`);
      expect(media.body).toMatchObject({ id: mediaId, projectId, sourceUrl: source.url, status: 'ready', bytes: clip.length });

      // Another project's key reads nothing of it.
      const other = await inNewProject(ctx.api);
      expectProblem(await other.api.get(`${MEDIA}/${mediaId}`), 404, 'not_found');
      expectProblem(await other.api.get(`${MEDIA}/${mediaId}/content`), 404, 'not_found');
    } finally {
      await source.close();
    }
  });

  it('gives the mediaId back to an output the client sends again without it, without fetching the expired URL again', async () => {
    const { api } = await inNewProject(ctx.api);
    const source = await anExpiringSource(clip);
    try {
      const traceId = anId('tr');
      const span = { id: 'render', name: 'render', startTime: at(0), output: { url: source.url, contentType: 'video/mp4' } };
      await ingest(api, { id: traceId, startTime: at(0), spans: [span] });
      const first = await readWhenCopied(api, traceId, ['render'], false);
      const mediaId = outputOf(spanOf(first, 'render')).mediaId;

      // The pipeline resends its span as it knows it (no mediaId), with its end.
      await ingest(api, { id: traceId, spans: [{ ...span, endTime: at(500) }] }, { wait: true });
      const again = await readEventually(api, traceId, (t) => spanOf(t, 'render').endTime === at(500) && outputOf(spanOf(t, 'render')).mediaId === mediaId, COPIED_WITHIN_MS);
      expect(outputOf(spanOf(again, 'render'))).toEqual({ url: source.url, contentType: 'video/mp4', mediaId });
      expect(source.hits()).toBe(1);
    } finally {
      await source.close();
    }
  });

  it('copies the output asset of an OTLP span with the cinetrace.video attributes', async () => {
    const { key, api } = await inNewProject(ctx.api);
    const source = await anExpiringSource(clip);
    try {
      const spans = recordSpans(({ start }) => {
        start('render shot 1', {
          'gen_ai.request.model': 'veo-3',
          'cinetrace.video.duration_seconds': 8,
          'cinetrace.video.output.url': source.url,
          'cinetrace.video.output.content_type': 'video/mp4',
        }).end();
      });
      expect(await exportSpans(otlpExporter(ctx.stack, { encoding: 'protobuf', projectKey: key, apiKey: ctx.stack.apiKey }), spans)).toEqual({ code: 0 });

      const spanId = spans[0].spanContext().spanId;
      const trace = await readWhenCopied(api, spans[0].spanContext().traceId, [spanId]);
      const span = spanOf(trace, spanId);
      expect(outputOf(span)).toEqual({ url: source.url, contentType: 'video/mp4', durationSeconds: 8, mediaId: expect.stringMatching(/^med_/) });
      // The attribute said 8 s; the probe of the copy says 2 (readWhenCopied waited for it).
      expect(probedSeconds(span)).toBe(true);
      expect((await api.get(`${MEDIA}/${outputOf(span).mediaId}/content`)).bytes.equals(clip)).toBe(true);
    } finally {
      await source.close();
    }
  });

  it('leaves the output as sent when the URL answers 404, and counts the copy failed', async () => {
    const { api } = await inNewProject(ctx.api);
    const source = await anExpiringSource(undefined);
    try {
      const failedBefore = await valueOf(ctx.stack, 'cinetrace_media_copies_total', { outcome: 'failed' });
      const traceId = anId('tr');
      const output = { url: source.url, contentType: 'video/mp4' };
      await ingest(api, { id: traceId, startTime: at(0), spans: [{ id: 'render', name: 'render', startTime: at(0), output, usage: { videoSeconds: 5 } }] }, { wait: true });
      await eventually(
        'the copy failed',
        async () => ((await valueOf(ctx.stack, 'cinetrace_media_copies_total', { outcome: 'failed' })) > failedBefore ? true : undefined),
        COPIED_WITHIN_MS,
        250,
      );
      expect(source.hits()).toBe(1);
      const span = spanOf(await readEventually(api, traceId), 'render');
      expect(span.output).toEqual(output);
      expect(span.usage).toEqual({ videoSeconds: 5 });
    } finally {
      await source.close();
    }
  });
});

describe('Media in trace outputs without OUTBOUND_ALLOW_PRIVATE', () => {
  // Its own stack: the test counts the copies the whole stack failed meanwhile.
  const ctx = useStack({ own: true });

  it('does not fetch a private address a span output names: the output stays as sent, the copy is counted failed', async () => {
    const { api } = await inNewProject(ctx.api);
    const source = await anExpiringSource(aClip());
    try {
      const failedBefore = await valueOf(ctx.stack, 'cinetrace_media_copies_total', { outcome: 'failed' });
      const traceId = anId('tr');
      const output = { url: source.url, contentType: 'video/mp4' };
      await ingest(api, { id: traceId, startTime: at(0), spans: [{ id: 'render', name: 'render', startTime: at(0), output }] }, { wait: true });
      await eventually(
        'the copy refused',
        async () => ((await valueOf(ctx.stack, 'cinetrace_media_copies_total', { outcome: 'failed' })) > failedBefore ? true : undefined),
        COPIED_WITHIN_MS,
        250,
      );
      expect(source.hits()).toBe(0);
      expect(spanOf(await readEventually(api, traceId), 'render').output).toEqual(output);
      expect((await api.get<Answer<'listMedia'>>(MEDIA)).body.data).toEqual([]);
    } finally {
      await source.close();
    }
  });
});
