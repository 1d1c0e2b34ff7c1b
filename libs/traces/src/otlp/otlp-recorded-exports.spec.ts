import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceInput } from '@cinetrace/contracts';
import { checkOtlpPayloadAlone } from './otlp-span-checks';
import { otlpToTraces } from './otlp-to-traces';

/**
 * The exports real instrumentations sent (recorded once: test/fixtures/otel/README.md), mapped
 * and validated as the gateway does: what a user of each package sees first.
 */
const FIXTURES = join(__dirname, '../../../../test/fixtures/otel');

function tracesOf(fixture: string): TraceInput[] {
  const { payloads, rejected } = otlpToTraces(JSON.parse(readFileSync(join(FIXTURES, `${fixture}.json`), 'utf8')));
  expect(rejected).toEqual([]);
  return payloads.map(({ trace }) => {
    const checked = checkOtlpPayloadAlone(trace);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    return checked.trace;
  });
}

const spanNamed = (trace: TraceInput, name: string, nth = 0) => trace.spans.filter((s) => s.name === name)[nth];
const ANSWER = 'Sunny in Lyon: shoot the fox at noon.';
const BRIEF = 'Plan a 10-second fox video for Lyon.';
const SYSTEM_INSTRUCTIONS = { role: 'system', parts: [{ type: 'text', content: 'You plan short fox videos.' }] };

describe('recorded exports of real instrumentations', () => {
  it('@arizeai/openinference-instrumentation-openai: session, user, tags, metadata, service, kinds, models, cache and reasoning tokens', () => {
    const [trace] = tracesOf('openinference-openai');
    expect(trace).toMatchObject({
      name: 'plan-video',
      sessionId: 'oi-session-7',
      userId: 'oi-user-42',
      tags: ['storyboard', 'openinference'],
      metadata: { tenant: 'acme', plan: 'pro', 'service.name': 'storyboard-api', 'service.version': '1.4.2', 'deployment.environment.name': 'staging' },
      input: BRIEF,
      output: ANSWER,
    });
    const firstCall = spanNamed(trace, 'OpenAI Chat Completions');
    expect(firstCall).toMatchObject({
      kind: 'llm',
      model: 'gpt-4o-mini-2026-01-01',
      usage: { inputTokens: 11, outputTokens: 5, totalTokens: 16, cachedInputTokens: 3, reasoningTokens: 2 },
    });
    expect(spanNamed(trace, 'OpenAI Embeddings')).toMatchObject({ kind: 'embedding', model: 'text-embedding-3-small', input: ANSWER });
    expect(spanNamed(trace, 'getWeather')).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { city: 'Lyon', sky: 'sunny' } });
  });

  it('@arizeai/openinference-instrumentation-openai without input.value and output.value: the flattened messages', () => {
    const request = JSON.parse(readFileSync(join(FIXTURES, 'openinference-openai.json'), 'utf8')) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ attributes: Array<{ key: string }> }> }> }>;
    };
    for (const rs of request.resourceSpans)
      for (const ss of rs.scopeSpans) for (const s of ss.spans) s.attributes = s.attributes.filter((a) => a.key !== 'input.value' && a.key !== 'output.value');
    const { payloads } = otlpToTraces(request);
    const call = (n: number) => payloads[0].trace.spans.filter((s) => s.name === 'OpenAI Chat Completions')[n];
    expect(call(0).input).toEqual([
      { role: 'system', content: 'You plan short fox videos.' },
      { role: 'user', content: BRIEF },
    ]);
    expect(call(0).output).toEqual([{ role: 'assistant', tool_calls: [{ id: 'call_weather_1', function: { name: 'getWeather', arguments: '{"city":"Lyon"}' } }] }]);
    expect(call(1).output).toEqual([{ role: 'assistant', content: ANSWER }]);
  });

  it("the AI SDK's GenAI integration (@ai-sdk/otel OpenTelemetry): agent, steps, tool, user, session and service", () => {
    const [agent, embedding] = tracesOf('ai-sdk-otel');
    expect(agent).toMatchObject({
      name: 'invoke_agent gpt-4o-mini',
      userId: 'ai-user-9',
      sessionId: 'ai-session-3',
      metadata: { 'service.name': 'storyboard-agent', 'service.version': '2.0.1', 'deployment.environment': 'production' },
      // gen_ai.system_instructions first, then gen_ai.input.messages.
      input: [SYSTEM_INSTRUCTIONS, { role: 'user', parts: [{ type: 'text', content: BRIEF }] }],
    });
    expect(spanNamed(agent, 'invoke_agent gpt-4o-mini')).toMatchObject({ kind: 'agent', model: 'gpt-4o-mini' });
    expect(spanNamed(agent, 'step 1')).toMatchObject({ kind: 'agent' });
    expect(spanNamed(agent, 'step 1').model).toBeUndefined();
    expect(spanNamed(agent, 'execute_tool getWeather')).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { city: 'Lyon', sky: 'sunny' } });
    expect(spanNamed(agent, 'chat gpt-4o-mini')).toMatchObject({
      kind: 'generation',
      model: 'gpt-4o-mini-2026-01-01',
      usage: { inputTokens: 11, outputTokens: 5, cachedInputTokens: 3 },
    });
    expect((spanNamed(agent, 'chat gpt-4o-mini', 1).input as unknown[]).slice(0, 2)).toEqual([SYSTEM_INSTRUCTIONS, { role: 'user', parts: [{ type: 'text', content: BRIEF }] }]);
    expect(spanNamed(embedding, 'embeddings text-embedding-3-small')).toMatchObject({ kind: 'embedding', model: 'text-embedding-3-small' });
  });

  it("the AI SDK's legacy ai.* attributes (@ai-sdk/otel LegacyOpenTelemetry): prompts, answers, tool calls, kinds and models", () => {
    const [agent, embedding] = tracesOf('ai-sdk-legacy');
    expect(agent).toMatchObject({
      name: 'ai.generateText',
      input: { system: 'You plan short fox videos.', messages: [{ role: 'user', content: BRIEF }] },
      output: ANSWER,
      metadata: { 'service.name': 'storyboard-agent' },
    });
    expect(spanNamed(agent, 'ai.generateText')).toMatchObject({ kind: 'agent', model: 'gpt-4o-mini' });
    const [toolStep, answerStep] = [spanNamed(agent, 'ai.generateText.doGenerate', 0), spanNamed(agent, 'ai.generateText.doGenerate', 1)];
    expect(toolStep).toMatchObject({
      kind: 'generation',
      model: 'gpt-4o-mini-2026-01-01',
      output: [{ toolCallId: 'call_weather_1', toolName: 'getWeather', input: { city: 'Lyon' } }],
    });
    expect(toolStep.input).toEqual([
      { role: 'system', content: 'You plan short fox videos.' },
      { role: 'user', content: [{ type: 'text', text: BRIEF }] },
    ]);
    expect(answerStep).toMatchObject({ kind: 'generation', output: ANSWER, usage: { inputTokens: 11, outputTokens: 5 } });
    expect(spanNamed(agent, 'ai.toolCall')).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { city: 'Lyon', sky: 'sunny' } });
    expect(spanNamed(embedding, 'ai.embed.doEmbed')).toMatchObject({ kind: 'embedding', model: 'text-embedding-3-small', input: [ANSWER] });
    expect(spanNamed(embedding, 'ai.embed')).toMatchObject({ kind: 'embedding', input: ANSWER });
    expect(embedding.input).toBe(ANSWER);
  });

  it("Traceloop's node SDK (@traceloop/node-server-sdk): workflow, agent, task and tool kinds, entity input and output, association properties", () => {
    const [trace] = tracesOf('traceloop-openai');
    expect(trace).toMatchObject({
      name: 'storyboard.workflow',
      userId: 'tl-user-5',
      sessionId: 'tl-session-2',
      metadata: { 'service.name': 'storyboard-worker', 'service.version': '0.9.0', 'deployment.environment': 'dev' },
      input: { args: [], kwargs: {} },
      output: 'Shot 1: a red fox crosses a snowy field at dawn.',
    });
    expect(spanNamed(trace, 'storyboard.workflow').kind).toBe('span');
    expect(spanNamed(trace, 'draft.task').kind).toBe('span');
    expect(spanNamed(trace, 'planner.agent')).toMatchObject({ kind: 'agent', input: { args: [BRIEF], kwargs: {} } });
    expect(spanNamed(trace, 'getWeather.tool')).toMatchObject({ kind: 'tool', input: { args: ['Lyon'], kwargs: {} }, output: { city: 'Lyon', sky: 'sunny' } });
    expect(spanNamed(trace, 'chat gpt-4o-mini')).toMatchObject({
      kind: 'generation',
      model: 'gpt-4o-mini-2026-01-01',
      usage: { inputTokens: 11, outputTokens: 5, totalTokens: 16 },
    });
  });
});
