import { expect } from '@jest/globals';
import { Api } from '@cinetrace/testing';
import { decodeExportResponse, decodeStatus } from '@cinetrace/traces';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { gzipSync } from 'node:zlib';
import { Encoding, OTLP_TRACES_UNDER_API, SpanKind, SpanStatusCode, exportSpans, hrIso, otlpExporter, otlpHeaders, postOtlp, recordSpans, succeeded } from './support/otlp';
import { valueOf } from './support/metrics';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACE_TEST_TIMEOUT_MS, getTrace, readEventually } from './support/traces';
import { Answer, Schema } from './support/api-types';

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

const JSON_TYPE = 'application/json';
const PROTOBUF_TYPE = 'application/x-protobuf';

describe('OTLP/HTTP trace ingest', () => {
  // Its own stack: a test counts the spans the whole stack accepted and refused meanwhile.
  const ctx = useStack({ own: true });

  /** A new project of the stack's organization: its key, and a REST client scoped to it. */
  async function newProject(api: Api = ctx.api): Promise<{ key: string; rest: Api }> {
    const { key, api: rest } = await inNewProject(api);
    return { key, rest };
  }

  const exporterFor = (projectKey: string, encoding: Encoding, extra: { gzip?: boolean; path?: string } = {}) =>
    otlpExporter(ctx.stack, { encoding, projectKey, apiKey: ctx.stack.apiKey, ...extra });

  it('stores GenAI spans sent by the SDK JSON exporter, mapped field by field', async () => {
    const project = await newProject();
    const inputMessages = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Plan a fox video' }] }]);
    const outputMessages = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Shot 1: a fox' }] }]);
    const spans = recordSpans(({ start }) => {
      const root = start('storyboard-pipeline', { 'user.tier': 'pro' }, undefined, SpanKind.SERVER);
      const llm = start(
        'chat gpt-4o',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.usage.input_tokens': 120,
          'gen_ai.usage.output_tokens': 30,
          'gen_ai.input.messages': inputMessages,
          'gen_ai.output.messages': outputMessages,
        },
        root,
        SpanKind.CLIENT,
      );
      llm.addEvent('gen_ai.choice', { index: 0 });
      llm.addLink({ context: root.spanContext(), attributes: { reason: 'follows' } });
      llm.setStatus({ code: SpanStatusCode.OK });
      llm.end();
      root.setStatus({ code: SpanStatusCode.OK });
      root.end();
    });
    const [llm, root] = spans;
    const result = await exportSpans(exporterFor(project.key, 'json'), spans);
    expect(result).toEqual({ code: 0 });

    const traceId = root.spanContext().traceId;
    const stored = await readEventually(project.rest, traceId, (t) => t.spanCount === 2);
    expect(stored.id).toBe(traceId);
    expect(stored.name).toBe('storyboard-pipeline');
    expect(stored.status).toBe('ok');
    expect(stored.startTime).toBe(hrIso(root.startTime));
    expect(stored.endTime).toBe(hrIso(root.endTime));
    expect(stored.usage).toEqual({ inputTokens: 120, outputTokens: 30 });

    // Spans come in startTime order; these two may start within one millisecond, so they are found by id.
    const byId = (id: string) => stored.spans.find((s) => s.id === id)!;
    const storedRoot = byId(root.spanContext().spanId);
    const storedLlm = byId(llm.spanContext().spanId);
    expect(storedRoot.id).toBe(root.spanContext().spanId);
    expect(storedRoot.parentId).toBeNull();
    expect(storedRoot.depth).toBe(0);
    expect(storedRoot.kind).toBe('span');
    expect(storedRoot.attributes?.['otel.span_kind']).toBe('SERVER');
    expect(storedRoot.attributes?.['user.tier']).toBe('pro');

    expect(storedLlm.id).toBe(llm.spanContext().spanId);
    expect(storedLlm.parentId).toBe(root.spanContext().spanId);
    expect(storedLlm.depth).toBe(1);
    expect(storedLlm.name).toBe('chat gpt-4o');
    expect(storedLlm.kind).toBe('generation');
    expect(storedLlm.status).toBe('ok');
    expect(storedLlm.model).toBe('gpt-4o-2024-08-06');
    expect(storedLlm.usage).toEqual({ inputTokens: 120, outputTokens: 30 });
    expect(storedLlm.input).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Plan a fox video' }] }]);
    expect(storedLlm.output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Shot 1: a fox' }] }]);
    expect(storedLlm.startTime).toBe(hrIso(llm.startTime));
    expect(storedLlm.endTime).toBe(hrIso(llm.endTime));
    expect(storedLlm.attributes?.['gen_ai.provider.name']).toBe('openai');
    expect(storedLlm.attributes?.['gen_ai.request.model']).toBe('gpt-4o');
    // Kept as sent, though they travel and are stored once, as the span's input and output.
    expect(storedLlm.attributes?.['gen_ai.input.messages']).toBe(inputMessages);
    expect(storedLlm.attributes?.['gen_ai.output.messages']).toBe(outputMessages);
    expect(storedLlm.attributes?.['otel.span_kind']).toBe('CLIENT');
    expect(storedLlm.attributes?.['otel.resource']).toEqual({ 'service.name': 'video-pipeline', 'deployment.environment': 'e2e', ...sdkResource(storedLlm) });
    expect(storedLlm.attributes?.['otel.scope']).toEqual({ name: 'cinetrace-e2e', version: '1.0.0' });
    expect(storedLlm.attributes?.['otel.links']).toEqual([{ traceId, spanId: root.spanContext().spanId, attributes: { reason: 'follows' } }]);
    expect(storedLlm.events).toEqual([{ name: 'gen_ai.choice', time: hrIso(llm.events[0].time), attributes: { index: 0 } }]);
  });

  it('stores video spans sent by the SDK protobuf exporter: usage.videoSeconds, frames and the output asset', async () => {
    const project = await newProject();
    const spans = recordSpans(({ start }) => {
      const render = start('render shot 1', {
        'gen_ai.request.model': 'veo-3',
        'cinetrace.video.duration_seconds': 8,
        'cinetrace.video.width': 1920,
        'cinetrace.video.height': 1080,
        'cinetrace.video.fps': 24,
        'cinetrace.video.frame_count': 192,
        'cinetrace.video.seed': 7,
        'cinetrace.video.output.url': 'https://cdn.example/shot-1.mp4',
        'cinetrace.video.output.content_type': 'video/mp4',
        'cinetrace.video.generation_seconds': 41.5,
      });
      render.setStatus({ code: SpanStatusCode.ERROR, message: 'upscaler fell back to 720p' });
      render.end();
    });
    const result = await exportSpans(exporterFor(project.key, 'protobuf'), spans);
    expect(result).toEqual({ code: 0 });

    const stored = await readEventually(project.rest, spans[0].spanContext().traceId);
    expect(stored.status).toBe('error');
    expect(stored.usage).toEqual({ videoSeconds: 8, frames: 192 });
    const [span] = stored.spans;
    expect(span.kind).toBe('generation');
    expect(span.model).toBe('veo-3');
    expect(span.status).toBe('error');
    expect(span.statusMessage).toBe('upscaler fell back to 720p');
    expect(span.usage).toEqual({ videoSeconds: 8, frames: 192 });
    expect(span.output).toEqual({
      url: 'https://cdn.example/shot-1.mp4',
      contentType: 'video/mp4',
      width: 1920,
      height: 1080,
      fps: 24,
      durationSeconds: 8,
      frameCount: 192,
      seed: 7,
    });
    expect(span.attributes?.['cinetrace.video.generation_seconds']).toBe(41.5);
  });

  it('merges one trace sent in two exports (a child first, its root later), in either encoding, gzipped', async () => {
    const project = await newProject();
    const spans = recordSpans(({ start }) => {
      const root = start('pipeline');
      start('render', { 'cinetrace.video.duration_seconds': 4 }, root).end();
      root.end();
    });
    const [child, root] = spans;
    expect(succeeded(await exportSpans(exporterFor(project.key, 'protobuf', { gzip: true }), [child]))).toBe(true);
    const early = await readEventually(project.rest, root.spanContext().traceId);
    expect(early.status).toBe('running'); // no root yet: nothing says the trace ended
    expect(early.spans.map((s) => [s.id, s.depth])).toEqual([[child.spanContext().spanId, 0]]);

    expect(succeeded(await exportSpans(exporterFor(project.key, 'json', { gzip: true, path: OTLP_TRACES_UNDER_API }), [root]))).toBe(true);
    const merged = await readEventually(project.rest, root.spanContext().traceId, (t) => t.spanCount === 2);
    expect(merged.name).toBe('pipeline');
    expect(merged.status).toBe('ok');
    expect(merged.usage).toEqual({ videoSeconds: 4 });
    const byDepth = [...merged.spans].sort((x, y) => x.depth - y.depth);
    expect(byDepth.map((s) => [s.id, s.parentId, s.depth])).toEqual([
      [root.spanContext().spanId, null, 0],
      [child.spanContext().spanId, root.spanContext().spanId, 1],
    ]);
  });

  it('answers partial_success naming the spans validation refused, and stores the rest', async () => {
    const project = await newProject();
    const traceId = 'a1'.repeat(16);
    const span = (spanId: string, name: string) => ({ traceId, spanId, name, startTimeUnixNano: '1780000000000000000', endTimeUnixNano: 1780000001000000000 });
    const body = {
      resourceSpans: [{ scopeSpans: [{ spans: [span('b1'.repeat(8), 'kept'), span('b2'.repeat(8), 'x'.repeat(300)), { ...span('b3'.repeat(8), 'bad id'), spanId: 'nothex' }] }] }],
    };
    const refusedBefore = await valueOf(ctx.stack, 'cinetrace_ingest_spans_rejected_total', { reason: 'invalid' });
    const acceptedBefore = await valueOf(ctx.stack, 'cinetrace_ingest_spans_accepted_total');
    const answer = await postOtlp<Answer<'exportOtlpTraces'>>(ctx.stack, JSON.stringify(body), otlpHeaders(ctx.stack.apiKey, project.key, JSON_TYPE));
    // The metrics count the spans refused and kept, once each.
    expect(await valueOf(ctx.stack, 'cinetrace_ingest_spans_rejected_total', { reason: 'invalid' })).toBe(refusedBefore + 2);
    expect(await valueOf(ctx.stack, 'cinetrace_ingest_spans_accepted_total')).toBe(acceptedBefore + 1);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json.partialSuccess?.rejectedSpans).toBe('2');
    expect(answer.json.partialSuccess?.errorMessage).toMatch(/spanId must be 8 bytes/);
    expect(answer.json.partialSuccess?.errorMessage).toMatch(/span b2b2b2b2b2b2b2b2: name /);
    const stored = await readEventually(project.rest, traceId);
    expect(stored.spans.map((s) => s.name)).toEqual(['kept']);

    // Sent again, even with an Idempotency-Key (ignored here): the same answer, the same trace.
    for (let i = 0; i < 2; i++) {
      const again = await postOtlp(ctx.stack, JSON.stringify(body), otlpHeaders(ctx.stack.apiKey, project.key, JSON_TYPE, { 'idempotency-key': 'export-1' }));
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(again.json).toEqual(answer.json);
    }
    expect((await readEventually(project.rest, traceId)).spans.map((s) => s.name)).toEqual(['kept']);

    // The same in protobuf: the answer is a protobuf ExportTraceServiceResponse.
    const spans = recordSpans(({ start }) => start('x'.repeat(300)).end());
    const proto = await postOtlp(ctx.stack, Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), otlpHeaders(ctx.stack.apiKey, project.key, PROTOBUF_TYPE));
    expect(proto.status).toBe(200);
    expect(proto.headers.get('content-type')).toBe(PROTOBUF_TYPE);
    expect(decodeExportResponse(proto.bytes)).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringMatching(/name /) } });
  });

  it('stores every span of a large export (past 256 KiB, decoded off the event loop), in either encoding', async () => {
    const project = await newProject();
    const note = (i: number) => `${'a long generation note '.repeat(50)}${i}`; // ~1.2 KB per span
    // OTLP/JSON as written by hand, and protobuf as the SDK's serializer writes it.
    const jsonTraceId = 'c1'.repeat(16);
    const spans = Array.from({ length: 300 }, (_, i) => ({
      traceId: jsonTraceId,
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: `frame-${i}`,
      startTimeUnixNano: String(1780000000000000000n + BigInt(i) * 1000000n),
      endTimeUnixNano: String(1780000000500000000n + BigInt(i) * 1000000n),
      attributes: [{ key: 'note', value: { stringValue: note(i) } }],
    }));
    const json = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const recorded = recordSpans(({ start }) => {
      const root = start('frame-0', { note: note(0) });
      for (let i = 1; i < 300; i++) start(`frame-${i}`, { note: note(i) }, root).end();
      root.end();
    });
    const protobuf = Buffer.from(ProtobufTraceSerializer.serializeRequest(recorded)!);
    const protobufTraceId = recorded[0].spanContext().traceId;
    for (const [body, type, traceId] of [
      [json, JSON_TYPE, jsonTraceId],
      [protobuf, PROTOBUF_TYPE, protobufTraceId],
    ] as const) {
      expect(body.length).toBeGreaterThan(300 * 1024);
      const answer = await postOtlp(ctx.stack, body, otlpHeaders(ctx.stack.apiKey, project.key, type));
      expect(answer.status).toBe(200);
      const stored = await readEventually(project.rest, traceId, (t) => t.spans.length === 300);
      expect(stored.spans.find((s) => s.name === 'frame-299')).toMatchObject({ attributes: { note: note(299) } });
    }
  });

  it('stores a large gzipped export whole: decompressed on a decoding thread, not on the event loop', async () => {
    const project = await newProject();
    const note = (i: number) => `${'a compressible note '.repeat(60)}${i}`;
    const recorded = recordSpans(({ start }) => {
      const root = start('gz-0', { note: note(0) });
      for (let i = 1; i < 400; i++) start(`gz-${i}`, { note: note(i) }, root).end();
      root.end();
    });
    const protobuf = Buffer.from(ProtobufTraceSerializer.serializeRequest(recorded)!);
    const compressed = gzipSync(protobuf);
    // Small on the wire, past the size the loop decompresses itself once inflated.
    expect(compressed.length).toBeLessThan(64 * 1024);
    expect(protobuf.length).toBeGreaterThan(256 * 1024);
    const answer = await postOtlp(ctx.stack, compressed, otlpHeaders(ctx.stack.apiKey, project.key, PROTOBUF_TYPE, { 'content-encoding': 'gzip' }));
    expect(answer.status).toBe(200);
    const stored = await readEventually(project.rest, recorded[0].spanContext().traceId, (t) => t.spans.length === 400);
    expect(stored.spans.find((s) => s.name === 'gz-399')).toMatchObject({ attributes: { note: note(399) } });
  });

  it('answers 400 with a google.rpc.Status for undecodable bodies, 415 for other types, 413 for a gzip bomb, 401 for any of them without a valid key', async () => {
    const project = await newProject();
    const headers = (type: string, extra: Record<string, string> = {}) => otlpHeaders(ctx.stack.apiKey, project.key, type, extra);

    const garbage = await postOtlp(ctx.stack, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), headers(PROTOBUF_TYPE));
    expect(garbage.status).toBe(400);
    expect(garbage.headers.get('content-type')).toBe(PROTOBUF_TYPE);
    expect(decodeStatus(garbage.bytes)).toEqual({ code: 3, message: expect.any(String) });

    const notJson = await postOtlp(ctx.stack, '{"resourceSpans": [', headers(JSON_TYPE));
    expect(notJson.status).toBe(400);
    expect(notJson.json).toEqual({ code: 3, message: expect.any(String) });

    const wrongShape = await postOtlp(ctx.stack, '{"resourceSpans": "all of them"}', headers(JSON_TYPE));
    expect(wrongShape.status).toBe(400);

    const notGzip = await postOtlp(ctx.stack, 'plain', headers(JSON_TYPE, { 'content-encoding': 'gzip' }));
    expect(notGzip.status).toBe(400);

    const text = await postOtlp(ctx.stack, 'hello', headers('text/plain'));
    expect(text.status).toBe(415);
    expect(text.json).toEqual({ code: 3, message: expect.any(String) });

    const brotli = await postOtlp(ctx.stack, '{}', headers(JSON_TYPE, { 'content-encoding': 'br' }));
    expect(brotli.status).toBe(415);

    // 64 MiB of zeros gzip to 64 KiB: decompression stops at the body limit.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const bombed = await postOtlp(ctx.stack, bomb, headers(JSON_TYPE, { 'content-encoding': 'gzip' }));
    expect(bombed.status).toBe(413);
    expect(bombed.json).toEqual({ code: 8, message: expect.stringMatching(/decompressed/) });

    // Without a valid key the body is never read: 401, whatever it holds.
    const unauthenticated = [
      { authorization: '', body: bomb, type: JSON_TYPE, encoding: 'gzip' },
      { authorization: 'Bearer ct_not_a_key_at_all_000000', body: bomb, type: PROTOBUF_TYPE, encoding: 'gzip' },
      { authorization: 'Bearer ct_not_a_key_at_all_000000', body: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), type: PROTOBUF_TYPE, encoding: 'identity' },
      { authorization: '', body: Buffer.from('plain'), type: 'text/plain', encoding: 'gzip' },
    ];
    for (const { authorization, body, type, encoding } of unauthenticated) {
      const refused = await postOtlp(ctx.stack, body, {
        'content-type': type,
        'content-encoding': encoding,
        'x-project-key': project.key,
        ...(authorization ? { authorization } : {}),
      });
      expect([refused.status, (refused.headers.get('content-type') ?? '').split(';')[0]]).toEqual([401, type === PROTOBUF_TYPE ? PROTOBUF_TYPE : JSON_TYPE]);
    }

    // Protobuf is taken by the OTLP routes only.
    const elsewhere = await postOtlp(ctx.stack, Buffer.from([]), headers(PROTOBUF_TYPE), '/api/v1/traces');
    expect(elsewhere.status).toBe(415);
    expect(elsewhere.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    // An empty export is a valid one.
    const empty = await postOtlp(ctx.stack, Buffer.from([]), headers(PROTOBUF_TYPE));
    expect(empty.status).toBe(200);
    expect(empty.bytes.length).toBe(0);
  });

  it('never lets one project’s key write into or read from another project or organization', async () => {
    const a = await newProject();
    const b = await newProject();
    const spans = recordSpans(({ start }) => start('secret plan of A', { 'input.value': 'A only' }).end());
    const traceId = spans[0].spanContext().traceId;
    expect(succeeded(await exportSpans(exporterFor(a.key, 'protobuf'), spans))).toBe(true);
    await readEventually(a.rest, traceId);

    // B sends spans with A's trace id: they make B's own trace, A's is untouched.
    const intruder = recordSpans(({ start }) => start('injected by B').end(), { traceId });
    expect(succeeded(await exportSpans(exporterFor(b.key, 'json'), intruder))).toBe(true);
    const bView = await readEventually(b.rest, traceId);
    expect(bView.spans.map((s) => s.name)).toEqual(['injected by B']);
    const aView = await readEventually(a.rest, traceId);
    expect(aView.spans.map((s) => s.name)).toEqual(['secret plan of A']);
    expect(aView.spans[0].input).toBe('A only');

    // Another organization's key with A's project key: refused, in OTLP's terms.
    const other = await ctx.api.post<Answer<'createOrganization', 201>>('/api/v1/organizations', { name: 'Tenant next door' });
    expect(other.status).toBe(201);
    const otherKey: string = other.body.apiKey.key;
    const refused = await postOtlp(ctx.stack, '{}', otlpHeaders(otherKey, a.key, JSON_TYPE));
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ code: 16, message: expect.any(String) });
    const failed = await exportSpans(otlpExporter(ctx.stack, { encoding: 'protobuf', projectKey: a.key, apiKey: otherKey }), intruder);
    expect(succeeded(failed)).toBe(false);
    expect((await getTrace(a.rest, traceId)).body.spans.map((s) => s.name)).toEqual(['secret plan of A']);

    // No key, or no project key.
    expect((await postOtlp(ctx.stack, '{}', { 'content-type': JSON_TYPE, 'x-project-key': a.key })).status).toBe(401);
    expect((await postOtlp(ctx.stack, '{}', { 'content-type': JSON_TYPE, authorization: `Bearer ${ctx.stack.apiKey}` })).status).toBe(401);
  });
});

/** The SDK's own resource attributes (telemetry.sdk.*), whatever their values. */
function sdkResource(span: Schema<'SpanView'>): Record<string, unknown> {
  const resource = span.attributes?.['otel.resource'] as Record<string, unknown>;
  return Object.fromEntries(Object.entries(resource).filter(([key]) => key.startsWith('telemetry.sdk.')));
}
