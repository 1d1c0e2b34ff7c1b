import { expect } from '@jest/globals';
import { Api } from '@cinetrace/testing';
import { decodeExportResponse, decodeGrpcStatusDetails } from '@cinetrace/traces';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { createApiKey } from './support/api-keys';
import { callGrpcExport, exportSpans, grpcMetadata, hrIso, otlpExporter, recordSpans, SpanKind, SpanStatusCode, succeeded } from './support/otlp';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACE_TEST_TIMEOUT_MS, getTrace, readEventually } from './support/traces';
import { Answer } from './support/api-types';

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

/** gRPC status codes the answers are checked against (grpc.status). */
const INVALID_ARGUMENT = 3;
const PERMISSION_DENIED = 7;
const UNAUTHENTICATED = 16;
const RESOURCE_EXHAUSTED = 8;

describe('OTLP/gRPC trace ingest', () => {
  const ctx = useStack();

  /** A new project of the stack's organization: its key, and a REST client scoped to it. */
  async function newProject(api: Api = ctx.api): Promise<{ key: string; rest: Api }> {
    const { key, api: rest } = await inNewProject(api);
    return { key, rest };
  }

  const grpcExporter = (projectKey: string, gzip = false) => otlpExporter(ctx.stack, { encoding: 'grpc', projectKey, apiKey: ctx.stack.apiKey, gzip });

  it('stores GenAI and video spans sent by the SDK gRPC exporter (gzip), mapped as over HTTP', async () => {
    const project = await newProject();
    const spans = recordSpans(({ start }) => {
      const root = start('shot pipeline', {}, undefined, SpanKind.SERVER);
      const plan = start(
        'chat gpt-4o',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.input_tokens': 90,
          'gen_ai.usage.output_tokens': 12,
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'a fox at dawn' }] }]),
        },
        root,
        SpanKind.CLIENT,
      );
      plan.addEvent('gen_ai.choice', { index: 0 });
      plan.end();
      const render = start(
        'render',
        {
          'gen_ai.request.model': 'veo-3',
          'cinetrace.video.duration_seconds': 6,
          'cinetrace.video.output.url': 'https://cdn.example/fox.mp4',
          'cinetrace.video.output.content_type': 'video/mp4',
        },
        root,
      );
      render.setStatus({ code: SpanStatusCode.OK });
      render.end();
      root.end();
    });
    expect(await exportSpans(grpcExporter(project.key, true), spans)).toEqual({ code: 0 });

    const [planSpan, renderSpan, rootSpan] = spans;
    const stored = await readEventually(project.rest, rootSpan.spanContext().traceId, (t) => t.spanCount === 3);
    expect(stored.name).toBe('shot pipeline');
    expect(stored.status).toBe('ok');
    expect(stored.usage).toEqual({ inputTokens: 90, outputTokens: 12, videoSeconds: 6 });
    const byId = new Map(stored.spans.map((s) => [s.id, s]));
    const llm = byId.get(planSpan.spanContext().spanId)!;
    expect(llm).toMatchObject({
      parentId: rootSpan.spanContext().spanId,
      depth: 1,
      kind: 'generation',
      model: 'gpt-4o',
      usage: { inputTokens: 90, outputTokens: 12 },
      input: [{ role: 'user', parts: [{ type: 'text', content: 'a fox at dawn' }] }],
      startTime: hrIso(planSpan.startTime),
    });
    expect(llm.attributes?.['gen_ai.provider.name']).toBe('openai');
    expect(llm.attributes?.['otel.span_kind']).toBe('CLIENT');
    expect(llm.events).toEqual([{ name: 'gen_ai.choice', time: hrIso(planSpan.events[0].time), attributes: { index: 0 } }]);
    expect(byId.get(renderSpan.spanContext().spanId)).toMatchObject({
      kind: 'generation',
      model: 'veo-3',
      status: 'ok',
      usage: { videoSeconds: 6 },
      output: { url: 'https://cdn.example/fox.mp4', contentType: 'video/mp4', durationSeconds: 6 },
    });
  });

  it('merges a trace sent partly over gRPC and partly over HTTP', async () => {
    const project = await newProject();
    const spans = recordSpans(({ start }) => {
      const root = start('pipeline');
      start('render', { 'cinetrace.video.duration_seconds': 3 }, root).end();
      root.end();
    });
    const [child, root] = spans;
    expect(succeeded(await exportSpans(grpcExporter(project.key), [child]))).toBe(true);
    expect(succeeded(await exportSpans(otlpExporter(ctx.stack, { encoding: 'protobuf', projectKey: project.key, apiKey: ctx.stack.apiKey }), [root]))).toBe(true);
    const merged = await readEventually(project.rest, root.spanContext().traceId, (t) => t.spanCount === 2);
    expect(merged.name).toBe('pipeline');
    // Both may start in the same millisecond: compared by depth, not by their order.
    expect([...merged.spans].sort((x, y) => x.depth - y.depth).map((s) => [s.id, s.depth])).toEqual([
      [root.spanContext().spanId, 0],
      [child.spanContext().spanId, 1],
    ]);
  });

  it('answers partial_success for refused spans, INVALID_ARGUMENT for undecodable bytes', async () => {
    const project = await newProject();
    const metadata = grpcMetadata(ctx.stack.apiKey, project.key);
    const spans = recordSpans(({ start }) => {
      start('kept').end();
      start('x'.repeat(300)).end();
    });
    const answer = await callGrpcExport(ctx.stack, Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), metadata);
    expect(answer.code).toBe(0);
    expect(decodeExportResponse(answer.bytes!)).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringMatching(/name /) } });
    const stored = await readEventually(project.rest, spans[0].spanContext().traceId);
    expect(stored.spans.map((s) => s.name)).toEqual(['kept']);

    const garbage = await callGrpcExport(ctx.stack, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), metadata);
    expect(garbage.code).toBe(INVALID_ARGUMENT);
    expect(garbage.details).toMatch(/ExportTraceServiceRequest/);
    expect(decodeGrpcStatusDetails(garbage.metadata!.get('grpc-status-details-bin')[0] as Buffer)).toMatchObject({ code: INVALID_ARGUMENT });
  });

  it('never lets a key write into another project or organization, and refuses keys without the ingest scope', async () => {
    const a = await newProject();
    const b = await newProject();
    const spans = recordSpans(({ start }) => start('plan of A', { 'input.value': 'A only' }).end());
    const traceId = spans[0].spanContext().traceId;
    expect(succeeded(await exportSpans(grpcExporter(a.key), spans))).toBe(true);
    await readEventually(a.rest, traceId);

    // B's key with A's trace id makes B's own trace; A's is untouched, and B cannot read it.
    const intruder = recordSpans(({ start }) => start('injected by B').end(), { traceId });
    expect(succeeded(await exportSpans(grpcExporter(b.key), intruder))).toBe(true);
    expect((await readEventually(b.rest, traceId)).spans.map((s) => s.name)).toEqual(['injected by B']);
    expect((await getTrace(a.rest, traceId)).body.spans.map((s) => s.name)).toEqual(['plan of A']);

    // Another organization's key with A's project key; no key; no project key.
    const other = await ctx.api.post<Answer<'createOrganization', 201>>('/api/v1/organizations', { name: 'Tenant next door, gRPC' });
    expect(other.status).toBe(201);
    const bytes = Buffer.from(ProtobufTraceSerializer.serializeRequest(intruder)!);
    for (const metadata of [grpcMetadata(other.body.apiKey.key, a.key), grpcMetadata('', a.key), grpcMetadata(ctx.stack.apiKey, '')]) {
      const refused = await callGrpcExport(ctx.stack, bytes, metadata);
      expect(refused.code).toBe(UNAUTHENTICATED);
      expect(refused.details).not.toMatch(/at .*\.js|stack/i);
    }

    // The keys are checked before the message is read: 64 MiB of zeros gzipped (~64 KiB) is
    // refused for its keys, never decompressed (which would answer RESOURCE_EXHAUSTED).
    const bomb = Buffer.alloc(64 * 1024 * 1024);
    for (const metadata of [grpcMetadata('', a.key), grpcMetadata('ct_not_a_key_at_all', a.key)]) {
      expect((await callGrpcExport(ctx.stack, bomb, metadata, { gzip: true })).code).toBe(UNAUTHENTICATED);
    }
    // With valid keys the same message is read, and refused for its size after decompression.
    expect((await callGrpcExport(ctx.stack, bomb, grpcMetadata(ctx.stack.apiKey, a.key), { gzip: true })).code).toBe(RESOURCE_EXHAUSTED);

    // A read-only key may not ingest.
    const readOnly = await createApiKey(ctx.api, { scopes: ['read'] });
    const denied = await callGrpcExport(ctx.stack, bytes, grpcMetadata(readOnly.key, a.key));
    expect(denied.code).toBe(PERMISSION_DENIED);
    expect((await getTrace(a.rest, traceId)).body.spans.map((s) => s.name)).toEqual(['plan of A']);
  });
});
