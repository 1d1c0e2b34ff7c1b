import { expect } from '@jest/globals';
import { Api } from '@cinetrace/testing';
import { OTLP_TRACE_DESCRIPTOR } from '@cinetrace/traces';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { SpanKind, exportSpans, otlpExporter, otlpHeaders, postOtlp, recordSpans, succeeded } from './support/otlp';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACE_TEST_TIMEOUT_MS, TraceView, args, listIds, readEventually } from './support/traces';

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

/**
 * What the instrumentations people run send (recorded once: test/fixtures/otel/README.md),
 * posted to POST /v1/traces as their exporters would, and read back: the trace's user,
 * session, tags, metadata, input and output, and each span's kind, model, usage, input and
 * output, and the list filters that find OTel traces by them. In the distributed mode a
 * protobuf export of one whole trace crosses the trace stream as its bytes and is mapped again
 * by trace-ingest; the others cross as the traces they map to: both ways are sent here.
 */

const FIXTURES = join(__dirname, '../fixtures/otel');
const ExportRequest = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

interface OtlpJsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: unknown }>;
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpJsonRequest {
  resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpJsonSpan[] }> }>;
}

/** What the AI SDK's GenAI integration sends as gen_ai.system_instructions, as the first message of the input. */
const SYSTEM_MESSAGE = { role: 'system', parts: [{ type: 'text', content: 'You plan short fox videos.' }] };

const fixture = (name: string): OtlpJsonRequest => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as OtlpJsonRequest;
const spansOf = (request: OtlpJsonRequest): OtlpJsonSpan[] => request.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
/** The trace id of the fixture's span of this name. */
const traceIdOf = (request: OtlpJsonRequest, spanName: string): string => spansOf(request).find((s) => s.name === spanName)!.traceId;

/** The same export as protobuf (what the http/protobuf exporter sends): OTLP/JSON's hex ids are bytes there. */
function asProtobuf(request: OtlpJsonRequest): Buffer {
  const hex = (id: string | undefined) => (id ? Buffer.from(id, 'hex') : undefined);
  const copy = structuredClone(request);
  for (const span of spansOf(copy) as unknown as Array<Record<string, unknown>>) {
    for (const key of ['traceId', 'spanId', 'parentSpanId']) span[key] = hex(span[key] as string | undefined);
    for (const link of (span.links ?? []) as Array<Record<string, unknown>>) Object.assign(link, { traceId: hex(link.traceId as string), spanId: hex(link.spanId as string) });
  }
  return Buffer.from(ExportRequest.encode(ExportRequest.fromObject(copy)).finish());
}

describe('OTLP: what OpenInference, the Vercel AI SDK and Traceloop send', () => {
  const ctx = useStack();

  async function newProject(): Promise<{ key: string; rest: Api }> {
    const { key, api } = await inNewProject(ctx.api);
    return { key, rest: api };
  }

  async function send(projectKey: string, request: OtlpJsonRequest, encoding: 'json' | 'protobuf'): Promise<void> {
    const body = encoding === 'json' ? JSON.stringify(request) : asProtobuf(request);
    const contentType = encoding === 'json' ? 'application/json' : 'application/x-protobuf';
    const answer = await postOtlp(ctx.stack, body, otlpHeaders(ctx.stack.apiKey, projectKey, contentType));
    expect(answer.status).toBe(200);
    // Every span was taken: no partialSuccess.
    if (encoding === 'json') expect(answer.json).toEqual({});
    else expect(answer.bytes).toHaveLength(0);
  }

  const span = (trace: TraceView, name: string, nth = 0) => {
    const found = trace.spans.filter((s) => s.name === name)[nth];
    if (!found) throw new Error(`no span ${name} (#${nth}) in ${trace.spans.map((s) => s.name).join(', ')}`);
    return found;
  };

  it('OpenInference (protobuf, one whole trace): session, user, tags, metadata and service, found by every list filter', async () => {
    const project = await newProject();
    const request = fixture('openinference-openai');
    const traceId = traceIdOf(request, 'plan-video');
    await send(project.key, request, 'protobuf');

    const trace = await readEventually(project.rest, traceId, (t) => t.spanCount === 5);
    expect(trace).toMatchObject({
      name: 'plan-video',
      sessionId: 'oi-session-7',
      userId: 'oi-user-42',
      tags: ['storyboard', 'openinference'],
      metadata: { tenant: 'acme', plan: 'pro', 'service.name': 'storyboard-api', 'service.version': '1.4.2', 'deployment.environment.name': 'staging' },
      input: 'Plan a 10-second fox video for Lyon.',
      output: 'Sunny in Lyon: shoot the fox at noon.',
    });
    expect(span(trace, 'OpenAI Chat Completions')).toMatchObject({
      kind: 'llm',
      model: 'gpt-4o-mini-2026-01-01',
      usage: { inputTokens: 11, outputTokens: 5, totalTokens: 16, cachedInputTokens: 3, reasoningTokens: 2 },
    });
    expect(span(trace, 'OpenAI Embeddings')).toMatchObject({ kind: 'embedding', model: 'text-embedding-3-small' });
    expect(span(trace, 'getWeather')).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { city: 'Lyon', sky: 'sunny' } });

    expect(await listIds(project.rest, { userId: 'oi-user-42' })).toEqual([traceId]);
    expect(await listIds(project.rest, { sessionId: 'oi-session-7' })).toEqual([traceId]);
    expect(await listIds(project.rest, { tags: 'storyboard,openinference' })).toEqual([traceId]);
    expect(await listIds(project.rest, args({ metadata: { 'service.name': 'storyboard-api', tenant: 'acme' } }))).toEqual([traceId]);
    expect(await listIds(project.rest, { userId: 'someone-else' })).toEqual([]);
    expect(await listIds(project.rest, args({ metadata: { 'service.name': 'another-service' } }))).toEqual([]);
  });

  it("OpenInference's flattened messages (JSON), when its spans carry no input.value or output.value", async () => {
    const project = await newProject();
    const request = fixture('openinference-openai');
    for (const s of spansOf(request)) s.attributes = s.attributes.filter((a) => a.key !== 'input.value' && a.key !== 'output.value');
    const traceId = traceIdOf(request, 'plan-video');
    await send(project.key, request, 'json');

    const trace = await readEventually(project.rest, traceId, (t) => t.spanCount === 5);
    expect(span(trace, 'OpenAI Chat Completions', 0).input).toEqual([
      { role: 'system', content: 'You plan short fox videos.' },
      { role: 'user', content: 'Plan a 10-second fox video for Lyon.' },
    ]);
    expect(span(trace, 'OpenAI Chat Completions', 0).output).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'call_weather_1', function: { name: 'getWeather', arguments: '{"city":"Lyon"}' } }] },
    ]);
    expect(span(trace, 'OpenAI Chat Completions', 1).output).toEqual([{ role: 'assistant', content: 'Sunny in Lyon: shoot the fox at noon.' }]);
  });

  it("the AI SDK's GenAI integration (JSON, two traces): agent, steps, tool and model calls, user and session, both traces by service", async () => {
    const project = await newProject();
    const request = fixture('ai-sdk-otel');
    const agentId = traceIdOf(request, 'invoke_agent gpt-4o-mini');
    const embedId = traceIdOf(request, 'embeddings text-embedding-3-small');
    await send(project.key, request, 'json');

    const agent = await readEventually(project.rest, agentId, (t) => t.spanCount === 6);
    expect(agent).toMatchObject({
      userId: 'ai-user-9',
      sessionId: 'ai-session-3',
      metadata: { 'service.name': 'storyboard-agent', 'service.version': '2.0.1', 'deployment.environment': 'production' },
      // gen_ai.system_instructions, then gen_ai.input.messages: on the stream the input travels whole (made of two attributes).
      input: [SYSTEM_MESSAGE, { role: 'user', parts: [{ type: 'text', content: 'Plan a 10-second fox video for Lyon.' }] }],
    });
    expect(span(agent, 'chat gpt-4o-mini', 0).input).toEqual([SYSTEM_MESSAGE, { role: 'user', parts: [{ type: 'text', content: 'Plan a 10-second fox video for Lyon.' }] }]);
    expect(span(agent, 'invoke_agent gpt-4o-mini')).toMatchObject({ kind: 'agent', model: 'gpt-4o-mini' });
    expect(span(agent, 'step 1').kind).toBe('agent');
    expect(span(agent, 'step 1').model).toBeNull();
    expect(span(agent, 'execute_tool getWeather')).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { city: 'Lyon', sky: 'sunny' } });
    expect(span(agent, 'chat gpt-4o-mini', 1)).toMatchObject({ kind: 'generation', usage: { inputTokens: 11, outputTokens: 5, cachedInputTokens: 3 } });
    const embedding = await readEventually(project.rest, embedId, (t) => t.spanCount === 2);
    expect(span(embedding, 'embeddings text-embedding-3-small')).toMatchObject({ kind: 'embedding', model: 'text-embedding-3-small' });

    expect(await listIds(project.rest, { userId: 'ai-user-9', sessionId: 'ai-session-3' })).toEqual(expect.arrayContaining([agentId, embedId]));
    expect((await listIds(project.rest, args({ metadata: { 'service.name': 'storyboard-agent' } }))).sort()).toEqual([agentId, embedId].sort());
  });

  it("the AI SDK's legacy ai.* attributes (protobuf, two traces): prompts, answers, tool calls, kinds and models", async () => {
    const project = await newProject();
    const request = fixture('ai-sdk-legacy');
    const traceId = traceIdOf(request, 'ai.generateText');
    const embedId = traceIdOf(request, 'ai.embed');
    await send(project.key, request, 'protobuf');

    const trace = await readEventually(project.rest, traceId, (t) => t.spanCount === 4);
    expect(trace).toMatchObject({
      input: { system: 'You plan short fox videos.', messages: [{ role: 'user', content: 'Plan a 10-second fox video for Lyon.' }] },
      output: 'Sunny in Lyon: shoot the fox at noon.',
      metadata: { 'service.name': 'storyboard-agent' },
    });
    expect(span(trace, 'ai.generateText')).toMatchObject({ kind: 'agent', model: 'gpt-4o-mini' });
    expect(span(trace, 'ai.generateText.doGenerate', 0)).toMatchObject({
      kind: 'generation',
      model: 'gpt-4o-mini-2026-01-01',
      output: [{ toolCallId: 'call_weather_1', toolName: 'getWeather', input: { city: 'Lyon' } }],
    });
    expect(span(trace, 'ai.generateText.doGenerate', 1)).toMatchObject({ kind: 'generation', output: 'Sunny in Lyon: shoot the fox at noon.' });
    expect(span(trace, 'ai.toolCall')).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { city: 'Lyon', sky: 'sunny' } });
    // What the embedding spans embedded: ai.value on ai.embed (the trace's input), ai.values on its doEmbed.
    const embedding = await readEventually(project.rest, embedId, (t) => t.spanCount === 2);
    expect(embedding.input).toBe('Sunny in Lyon: shoot the fox at noon.');
    expect(span(embedding, 'ai.embed.doEmbed')).toMatchObject({ kind: 'embedding', model: 'text-embedding-3-small', input: ['Sunny in Lyon: shoot the fox at noon.'] });
  });

  it("Traceloop's node SDK (protobuf, one whole trace): association properties, workflow, agent, task and tool, entity input and output", async () => {
    const project = await newProject();
    const request = fixture('traceloop-openai');
    const traceId = traceIdOf(request, 'storyboard.workflow');
    await send(project.key, request, 'protobuf');

    const trace = await readEventually(project.rest, traceId, (t) => t.spanCount === 5);
    expect(trace).toMatchObject({
      userId: 'tl-user-5',
      sessionId: 'tl-session-2',
      metadata: { 'service.name': 'storyboard-worker', 'service.version': '0.9.0', 'deployment.environment': 'dev' },
      output: 'Shot 1: a red fox crosses a snowy field at dawn.',
    });
    expect(span(trace, 'storyboard.workflow').kind).toBe('span');
    expect(span(trace, 'planner.agent')).toMatchObject({ kind: 'agent', input: { args: ['Plan a 10-second fox video for Lyon.'], kwargs: {} } });
    expect(span(trace, 'getWeather.tool')).toMatchObject({ kind: 'tool', output: { city: 'Lyon', sky: 'sunny' } });
    expect(span(trace, 'chat gpt-4o-mini')).toMatchObject({ kind: 'generation', usage: { inputTokens: 11, outputTokens: 5, totalTokens: 16 } });

    expect(await listIds(project.rest, { sessionId: 'tl-session-2' })).toEqual([traceId]);
    expect(await listIds(project.rest, args({ userId: 'tl-user-5', metadata: { 'deployment.environment': 'dev' } }))).toEqual([traceId]);
  });

  it('messages carried as span events, a sent cost and cache tokens (the real SDK protobuf exporter)', async () => {
    const project = await newProject();
    const spans = recordSpans(({ start }) => {
      const root = start(
        'chat gpt-4o',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.input_tokens': 120,
          'gen_ai.usage.output_tokens': 30,
          'gen_ai.usage.cache_read_input_tokens': 100,
          'gen_ai.usage.cache_creation_input_tokens': 20,
          'llm.cost.total': 0.0042,
          'session.id': 'events-session',
        },
        undefined,
        SpanKind.CLIENT,
      );
      root.addEvent('gen_ai.system.message', { 'gen_ai.system': 'openai', content: 'You plan fox videos.' });
      root.addEvent('gen_ai.user.message', { 'gen_ai.system': 'openai', content: 'A fox in the snow' });
      root.addEvent('gen_ai.choice', { index: 0, finish_reason: 'stop', message: '{"role":"assistant","content":"Shot 1: a fox"}' });
      const legacy = start('text_completion', { 'gen_ai.system': 'openai' }, root);
      legacy.addEvent('gen_ai.content.prompt', { 'gen_ai.prompt': 'Name the fox' });
      legacy.addEvent('gen_ai.content.completion', { 'gen_ai.completion': 'Renard' });
      legacy.end();
      root.end();
    });
    expect(succeeded(await exportSpans(otlpExporter(ctx.stack, { encoding: 'protobuf', projectKey: project.key, apiKey: ctx.stack.apiKey }), spans))).toBe(true);

    const traceId = spans[0].spanContext().traceId;
    const trace = await readEventually(project.rest, traceId, (t) => t.spanCount === 2);
    const root = span(trace, 'chat gpt-4o');
    expect(root).toMatchObject({
      kind: 'generation',
      costUsd: 0.0042,
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, cacheCreationInputTokens: 20 },
      input: [
        { role: 'system', content: 'You plan fox videos.' },
        { role: 'user', content: 'A fox in the snow' },
      ],
      output: [{ role: 'assistant', content: 'Shot 1: a fox', finish_reason: 'stop' }],
    });
    expect(root.events).toHaveLength(3);
    expect(trace).toMatchObject({
      sessionId: 'events-session',
      input: root.input,
      output: root.output,
      metadata: { 'service.name': 'video-pipeline', 'deployment.environment': 'e2e' },
    });
    expect(span(trace, 'text_completion')).toMatchObject({ kind: 'generation', input: 'Name the fox', output: 'Renard' });
  });
});
