import { expect } from '@jest/globals';
import { otlpToTraces } from './otlp-to-traces';

const TRACE = '5b8efff798038103d269b633813fc60c';
const T0 = 1_780_000_000_000; // ms
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: value } });
const event = (name: string, attributes: object[] = [], at = 1) => ({ name, timeUnixNano: nanos(T0 + at), attributes });

/** The one span these attributes and events map to. */
function mapped(attributes: object[], events: object[] = []): Record<string, unknown> {
  const span = { traceId: TRACE, spanId: 'eee19b7ec3c1b173', parentSpanId: 'eee19b7ec3c1b174', name: 'chat', startTimeUnixNano: nanos(T0), attributes, events };
  const { payloads, rejected } = otlpToTraces({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  expect(rejected).toEqual([]);
  return payloads[0].trace.spans[0];
}

describe('OTLP messages carried as span events', () => {
  it('makes the input of the message events and the output of the choices, and keeps the events', () => {
    const events = [
      event('gen_ai.system.message', [str('gen_ai.system', 'openai'), str('content', 'You plan fox videos.')]),
      event('gen_ai.user.message', [str('gen_ai.system', 'openai'), str('content', 'A fox in the snow')]),
      event('gen_ai.assistant.message', [str('tool_calls', '[{"id":"call_1","function":{"name":"getWeather"}}]')]),
      event('gen_ai.tool.message', [str('content', 'sunny'), str('id', 'call_1')]),
      event('gen_ai.choice', [int('index', 1), str('finish_reason', 'stop'), str('message', '{"content":"Second take"}')], 3),
      event(
        'gen_ai.choice',
        [int('index', 0), str('finish_reason', 'stop'), { key: 'message', value: { kvlistValue: { values: [str('role', 'assistant'), str('content', 'Shot 1: a fox')] } } }],
        2,
      ),
    ];
    const span = mapped([str('gen_ai.operation.name', 'chat'), str('gen_ai.request.model', 'gpt-4o')], events);
    expect(span.input).toEqual([
      { role: 'system', content: 'You plan fox videos.' },
      { role: 'user', content: 'A fox in the snow' },
      { role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'getWeather' } }] },
      { role: 'tool', content: 'sunny', id: 'call_1' },
    ]);
    expect(span.output).toEqual([
      { role: 'assistant', content: 'Shot 1: a fox', finish_reason: 'stop' },
      { role: 'assistant', content: 'Second take', finish_reason: 'stop' },
    ]);
    expect(span.events).toHaveLength(6);
  });

  it('takes the older gen_ai.content.prompt and gen_ai.content.completion events', () => {
    const prompt = [{ role: 'user', content: 'A fox' }];
    const span = mapped(
      [str('gen_ai.system', 'openai')],
      [event('gen_ai.content.prompt', [str('gen_ai.prompt', JSON.stringify(prompt))]), event('gen_ai.content.completion', [str('gen_ai.completion', 'Shot 1: a fox')])],
    );
    expect(span).toMatchObject({ kind: 'generation', input: prompt, output: 'Shot 1: a fox' });
  });

  it('prefers an attribute that holds the messages to the events, column by column', () => {
    const span = mapped(
      [str('gen_ai.input.messages', '[{"role":"user","parts":[]}]')],
      [event('gen_ai.user.message', [str('content', 'older copy')]), event('gen_ai.choice', [str('message', '{"content":"an answer"}')])],
    );
    expect(span.input).toEqual([{ role: 'user', parts: [] }]);
    expect(span.output).toEqual([{ role: 'assistant', content: 'an answer' }]);
  });
});

describe('OTLP messages flattened into attributes', () => {
  it("makes OpenInference's llm.input_messages and llm.output_messages into messages when input.value and output.value are absent", () => {
    const span = mapped([
      str('openinference.span.kind', 'LLM'),
      str('llm.input_messages.0.message.role', 'system'),
      str('llm.input_messages.0.message.content', 'You plan fox videos.'),
      str('llm.input_messages.10.message.role', 'tool'),
      str('llm.input_messages.10.message.content', '{"sky":"sunny"}'),
      str('llm.input_messages.10.message.tool_call_id', 'call_1'),
      str('llm.input_messages.1.message.role', 'user'),
      str('llm.input_messages.1.message.contents.0.message_content.type', 'text'),
      str('llm.input_messages.1.message.contents.0.message_content.text', 'A fox'),
      str('llm.output_messages.0.message.role', 'assistant'),
      str('llm.output_messages.0.message.tool_calls.0.tool_call.id', 'call_2'),
      str('llm.output_messages.0.message.tool_calls.0.tool_call.function.name', 'render'),
      str('llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments', '{"shots":3}'),
    ]);
    expect(span.input).toEqual([
      { role: 'system', content: 'You plan fox videos.' },
      { role: 'user', contents: [{ type: 'text', text: 'A fox' }] },
      { role: 'tool', content: '{"sky":"sunny"}', tool_call_id: 'call_1' },
    ]);
    expect(span.output).toEqual([{ role: 'assistant', tool_calls: [{ id: 'call_2', function: { name: 'render', arguments: '{"shots":3}' } }] }]);
  });

  it("makes Traceloop's older gen_ai.prompt.N and gen_ai.completion.N attributes into messages", () => {
    const span = mapped([
      str('gen_ai.system', 'openai'),
      str('gen_ai.prompt.0.role', 'user'),
      str('gen_ai.prompt.0.content', 'A fox'),
      str('gen_ai.completion.0.role', 'assistant'),
      str('gen_ai.completion.0.content', 'Shot 1: a fox'),
      str('gen_ai.completion.0.finish_reason', 'stop'),
    ]);
    expect(span.input).toEqual([{ role: 'user', content: 'A fox' }]);
    expect(span.output).toEqual([{ role: 'assistant', content: 'Shot 1: a fox', finish_reason: 'stop' }]);
  });

  it('leaves input.value the input when it is there, and keeps a __proto__ segment an own key', () => {
    expect(mapped([str('input.value', 'plain'), str('llm.input_messages.0.message.role', 'user')]).input).toBe('plain');
    const span = mapped([str('llm.input_messages.0.message.__proto__', 'x')]);
    expect(Object.getPrototypeOf((span.input as object[])[0])).toBe(Object.prototype);
    expect(JSON.stringify(span.input)).toBe('[{"__proto__":"x"}]');
  });
});
