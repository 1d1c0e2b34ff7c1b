import { expect } from '@jest/globals';
import { otlpToTraces } from './otlp-to-traces';

const TRACE = '5b8efff798038103d269b633813fc60c';
const ROOT = 'eee19b7ec3c1b174';
const CHILD = 'eee19b7ec3c1b173';
const T0 = 1_780_000_000_000; // ms
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

type Value = string | number | boolean;
const attribute = (key: string, value: Value) => ({
  key,
  value:
    typeof value === 'string' ? { stringValue: value } : typeof value === 'boolean' ? { boolValue: value } : Number.isInteger(value) ? { intValue: value } : { doubleValue: value },
});

/** The one span these attributes (and events) map to. */
function mapped(attributes: Record<string, Value>, events: object[] = []): Record<string, unknown> {
  const span = {
    traceId: TRACE,
    spanId: CHILD,
    parentSpanId: ROOT,
    name: 'step',
    startTimeUnixNano: nanos(T0),
    endTimeUnixNano: nanos(T0 + 1000),
    attributes: Object.entries(attributes).map(([key, value]) => attribute(key, value)),
    events,
  };
  const { payloads, rejected } = otlpToTraces({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  expect(rejected).toEqual([]);
  return payloads[0].trace.spans[0];
}

/** The one span these attributes and a list attribute (an OTLP arrayValue of strings) map to. */
function mappedList(attributes: Record<string, Value>, key: string, items: string[]): Record<string, unknown> {
  const span = {
    traceId: TRACE,
    spanId: CHILD,
    name: 'step',
    startTimeUnixNano: nanos(T0),
    attributes: [...Object.entries(attributes).map(([k, v]) => attribute(k, v)), { key, value: { arrayValue: { values: items.map((item) => ({ stringValue: item })) } } }],
  };
  const { payloads, rejected } = otlpToTraces({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  expect(rejected).toEqual([]);
  return payloads[0].trace.spans[0];
}

describe('OTLP span kinds', () => {
  it.each([
    ['agent_step', 'agent'],
    ['invoke_agent', 'agent'],
    ['create_agent', 'agent'],
    ['execute_tool', 'tool'],
    ['embeddings', 'embedding'],
    ['chat', 'generation'],
  ])('gen_ai.operation.name %s is a %s span, with no model said', (operation, kind) => {
    expect(mapped({ 'gen_ai.operation.name': operation }).kind).toBe(kind);
  });

  it('an AI SDK agent step (its own operation) is an agent, not a generation', () => {
    // What the AI SDK's GenAI integration sends for a step: no model, no provider.
    const step = mapped({ 'gen_ai.operation.name': 'agent_step' });
    expect(step.kind).toBe('agent');
    expect(step.model).toBeUndefined();
  });

  it('an operation of no known kind is a generation only when a provider or model says so', () => {
    expect(mapped({ 'gen_ai.operation.name': 'plan_shots' }).kind).toBeUndefined();
    expect(mapped({ 'gen_ai.operation.name': 'plan_shots', 'gen_ai.request.model': 'veo-3' }).kind).toBe('generation');
  });

  it.each([
    ['workflow', 'span'],
    ['task', 'span'],
    ['agent', 'agent'],
    ['tool', 'tool'],
  ])("Traceloop's traceloop.span.kind %s is a %s span", (traceloopKind, kind) => {
    // A Traceloop agent also names its agent (gen_ai.agent.name), which is not a model.
    expect(mapped({ 'traceloop.span.kind': traceloopKind, 'traceloop.entity.name': 'planner', 'gen_ai.agent.name': 'planner' }).kind).toBe(kind);
  });

  it.each([
    ['ai.toolCall', 'tool'],
    ['ai.generateText', 'agent'],
    ['ai.streamText.doStream', 'generation'],
    ['ai.embed.doEmbed', 'embedding'],
  ])("the AI SDK's ai.operationId %s is a %s span", (operationId, kind) => {
    expect(mapped({ 'ai.operationId': operationId, 'operation.name': `${operationId} plan-video` }).kind).toBe(kind);
  });

  it("Traceloop's older llm.request.type says an embedding", () => {
    expect(mapped({ 'llm.request.type': 'embedding', 'gen_ai.system': 'openai' }).kind).toBe('embedding');
  });
});

describe('OTLP span models', () => {
  it.each([
    ['embedding.model_name', 'text-embedding-3-small'],
    ['reranker.model_name', 'rerank-v3.5'],
    ['llm.request.model_name', 'gpt-4o'],
    ['llm.response.model_name', 'gpt-4o-2024-08-06'],
    ['llm.request.model', 'claude-sonnet'],
    ['llm.response.model', 'claude-sonnet-4-5'],
    ['ai.model.id', 'gpt-4o-mini'],
  ])('%s names the model', (key, model) => {
    expect(mapped({ [key]: model }).model).toBe(model);
  });

  it("takes the response's model over the request's", () => {
    expect(mapped({ 'llm.request.model': 'gpt-4o', 'llm.response.model': 'gpt-4o-2024-08-06' }).model).toBe('gpt-4o-2024-08-06');
    expect(mapped({ 'llm.request.model_name': 'gpt-4o', 'llm.response.model_name': 'gpt-4o-2024-08-06' }).model).toBe('gpt-4o-2024-08-06');
  });
});

describe('OTLP span usage and cost', () => {
  it('keeps cache, reasoning and total tokens of the GenAI conventions (both generations of names)', () => {
    expect(
      mapped({
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
        'gen_ai.usage.total_tokens': 150,
        'gen_ai.usage.cache_read.input_tokens': 100,
        'gen_ai.usage.cache_creation.input_tokens': 20,
      }).usage,
    ).toEqual({ inputTokens: 120, outputTokens: 30, totalTokens: 150, cachedInputTokens: 100, cacheCreationInputTokens: 20 });
    expect(
      mapped({
        'gen_ai.usage.prompt_tokens': 120,
        'gen_ai.usage.completion_tokens': 30,
        'llm.usage.total_tokens': 150,
        'gen_ai.usage.cache_read_input_tokens': 100,
        'gen_ai.usage.cache_creation_input_tokens': 20,
        'gen_ai.usage.reasoning_tokens': 12,
      }).usage,
    ).toEqual({ inputTokens: 120, outputTokens: 30, totalTokens: 150, cachedInputTokens: 100, cacheCreationInputTokens: 20, reasoningTokens: 12 });
  });

  it("keeps OpenInference's cache and reasoning token details", () => {
    expect(
      mapped({
        'llm.token_count.prompt': 11,
        'llm.token_count.completion': 5,
        'llm.token_count.total': 16,
        'llm.token_count.prompt_details.cache_read': 3,
        'llm.token_count.prompt_details.cache_write': 4,
        'llm.token_count.completion_details.reasoning': 2,
      }).usage,
    ).toEqual({ inputTokens: 11, outputTokens: 5, totalTokens: 16, cachedInputTokens: 3, cacheCreationInputTokens: 4, reasoningTokens: 2 });
  });

  it('takes a sent cost (llm.cost.total, else the prompt and completion costs together) as costUsd', () => {
    expect(mapped({ 'llm.cost.total': 0.0042, 'llm.cost.prompt': 1, 'llm.cost.completion': 1 }).costUsd).toBe(0.0042);
    expect(mapped({ 'llm.cost.prompt': 0.003, 'llm.cost.completion': 0.0015 }).costUsd).toBeCloseTo(0.0045, 10);
    expect(mapped({ 'llm.cost.completion': '0.25' }).costUsd).toBe(0.25);
    expect(mapped({ 'llm.model_name': 'gpt-4o' })).not.toHaveProperty('costUsd');
  });
});

describe('OTLP span inputs and outputs', () => {
  it('a tool call of the GenAI conventions: its arguments in, its result out', () => {
    const tool = mapped({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.arguments': '{"city":"Lyon"}', 'gen_ai.tool.call.result': '{"sky":"sunny"}' });
    expect(tool).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: { sky: 'sunny' } });
  });

  it("the AI SDK's tool call: ai.toolCall.args in, ai.toolCall.result out", () => {
    const tool = mapped({ 'ai.operationId': 'ai.toolCall', 'ai.toolCall.args': '{"city":"Lyon"}', 'ai.toolCall.result': '"sunny"' });
    expect(tool).toMatchObject({ kind: 'tool', input: { city: 'Lyon' }, output: 'sunny' });
  });

  it("the AI SDK's legacy prompt and answer: ai.prompt.messages or ai.prompt in, ai.response.text out", () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'Plan a fox video' }] }];
    expect(mapped({ 'ai.prompt.messages': JSON.stringify(messages), 'ai.response.text': 'Shot 1: a fox' })).toMatchObject({ input: messages, output: 'Shot 1: a fox' });
    expect(mapped({ 'ai.prompt': '{"system":"You plan videos.","prompt":"A fox"}' }).input).toEqual({ system: 'You plan videos.', prompt: 'A fox' });
  });

  it('an AI SDK model call that only called tools answers with its tool calls (its ai.response.text is empty)', () => {
    const calls = [{ toolCallId: 'call_1', toolName: 'getWeather', input: { city: 'Lyon' } }];
    expect(mapped({ 'ai.response.text': '', 'ai.response.toolCalls': JSON.stringify(calls) }).output).toEqual(calls);
    expect(mapped({ 'ai.response.object': '{"shots":3}' }).output).toEqual({ shots: 3 });
  });

  it("Traceloop's traceloop.entity.input and output (JSON of the function's arguments and result)", () => {
    const task = mapped({ 'traceloop.span.kind': 'task', 'traceloop.entity.input': '{"args":["Lyon"],"kwargs":{}}', 'traceloop.entity.output': '"Shot 1: a fox"' });
    expect(task).toMatchObject({ kind: 'span', input: { args: ['Lyon'], kwargs: {} }, output: 'Shot 1: a fox' });
  });

  it('when attributes pass 64 KiB, notes only the attribute the input was taken from and keeps the others as sent', () => {
    const messages = JSON.stringify([{ role: 'user', content: 'a fox in the snow, '.repeat(5000) }]);
    const span = mapped({ 'gen_ai.input.messages': messages, 'input.value': 'the short form', 'traceloop.entity.input': '{"args":[]}' });
    expect(span.input).toEqual(JSON.parse(messages));
    expect(span.attributes).toMatchObject({
      'gen_ai.input.messages': expect.stringMatching(/moved to the span's input/),
      'input.value': 'the short form',
      'traceloop.entity.input': '{"args":[]}',
    });
  });

  it('the GenAI system instructions are the first message of the input, in the shape of the input messages', () => {
    const instructions = [{ type: 'text', content: 'You plan short fox videos.' }];
    const messages = [{ role: 'user', parts: [{ type: 'text', content: 'A fox in the snow' }] }];
    const chat = mapped({ 'gen_ai.operation.name': 'chat', 'gen_ai.system_instructions': JSON.stringify(instructions), 'gen_ai.input.messages': JSON.stringify(messages) });
    expect(chat.input).toEqual([{ role: 'system', parts: instructions }, ...messages]);
    // Kept in attributes as sent, as every attribute is.
    expect(chat.attributes).toMatchObject({ 'gen_ai.system_instructions': JSON.stringify(instructions) });
    // Alone, they are the input; a plain text is one text part.
    expect(mapped({ 'gen_ai.system_instructions': JSON.stringify(instructions) }).input).toEqual([{ role: 'system', parts: instructions }]);
    expect(mapped({ 'gen_ai.system_instructions': 'Be brief.' }).input).toEqual([{ role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] }]);
  });

  it('the system instructions join message lists only: a prompt string stays the input as sent, empty instructions say nothing', () => {
    expect(mapped({ 'gen_ai.system_instructions': 'Be brief.', 'input.value': 'A fox' }).input).toBe('A fox');
    expect(mapped({ 'gen_ai.system_instructions': '', 'gen_ai.input.messages': '[{"role":"user","parts":[]}]' }).input).toEqual([{ role: 'user', parts: [] }]);
    // Messages carried as events take them too.
    const fromEvents = mapped({ 'gen_ai.system_instructions': 'Be brief.' }, [
      { name: 'gen_ai.user.message', timeUnixNano: nanos(T0), attributes: [attribute('content', 'A fox')] },
    ]);
    expect(fromEvents.input).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', content: 'A fox' },
    ]);
  });

  it('when attributes pass 64 KiB, notes the system instructions too when they went into the input', () => {
    const instructions = JSON.stringify([{ type: 'text', content: 'plan fox videos, '.repeat(3000) }]);
    const messages = JSON.stringify([{ role: 'user', content: 'a fox in the snow, '.repeat(2000) }]);
    const span = mapped({ 'gen_ai.system_instructions': instructions, 'gen_ai.input.messages': messages });
    expect(span.input).toEqual([{ role: 'system', parts: JSON.parse(instructions) as unknown }, ...(JSON.parse(messages) as unknown[])]);
    expect(span.attributes).toMatchObject({
      'gen_ai.system_instructions': expect.stringMatching(/moved to the span's input/),
      'gen_ai.input.messages': expect.stringMatching(/moved to the span's input/),
    });
  });

  it("the AI SDK's embedding spans: ai.value (ai.embed) or ai.values (ai.embedMany, doEmbed) in, each value as it was before JSON", () => {
    // As the AI SDK sends them: ai.value JSON.stringify's the value, ai.values a list of such texts.
    expect(mapped({ 'ai.operationId': 'ai.embed', 'ai.value': '"A fox in the snow"', 'ai.embedding': '[0.1,0.2]' })).toMatchObject({
      kind: 'embedding',
      input: 'A fox in the snow',
    });
    const many = mappedList({ 'ai.operationId': 'ai.embedMany' }, 'ai.values', ['"A fox"', '{"caption":"A hare"}', 'not JSON']);
    expect(many).toMatchObject({ kind: 'embedding', input: ['A fox', { caption: 'A hare' }, 'not JSON'] });
    // The embeddings are vectors, not an output a person reads: they stay in attributes only.
    expect(mapped({ 'ai.value': '"A fox"', 'ai.embedding': '[0.1,0.2]' })).not.toHaveProperty('output');
  });

  it('keeps the source order: input.value, then Traceloop, then the AI SDK, then tool arguments', () => {
    expect(mapped({ 'ai.prompt': '{"prompt":"a"}', 'traceloop.entity.input': '{"args":[]}', 'input.value': 'plain' }).input).toBe('plain');
    expect(mapped({ 'ai.prompt': '{"prompt":"a"}', 'traceloop.entity.input': '{"args":[]}' }).input).toEqual({ args: [] });
    expect(mapped({ 'ai.prompt': '{"prompt":"a"}', 'ai.prompt.messages': '[]', 'gen_ai.tool.call.arguments': '{}' }).input).toEqual([]);
    expect(mapped({ 'ai.response.text': 'text', 'ai.response.toolCalls': '[]', 'gen_ai.tool.call.result': 'r' }).output).toBe('text');
  });
});
