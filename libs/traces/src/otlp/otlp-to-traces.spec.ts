import { expect } from '@jest/globals';
import { otlpToTraces } from './otlp-to-traces';

const TRACE = '5b8efff798038103d269b633813fc60c';
const ROOT = 'eee19b7ec3c1b174';
const CHILD = 'eee19b7ec3c1b173';
const T0 = 1_780_000_000_000; // ms
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n + 123_456n}`;

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number | string) => ({ key, value: { intValue: value } });
const dbl = (key: string, value: number) => ({ key, value: { doubleValue: value } });

function request(spans: object[], resourceAttributes = [str('service.name', 'render-farm')]) {
  return { resourceSpans: [{ resource: { attributes: resourceAttributes }, scopeSpans: [{ scope: { name: 'video-sdk', version: '1.2.0' }, spans }] }] };
}

const span = (over: Record<string, unknown> = {}) => ({
  traceId: TRACE,
  spanId: CHILD,
  parentSpanId: ROOT,
  name: 'generate',
  kind: 3,
  startTimeUnixNano: nanos(T0 + 10),
  endTimeUnixNano: nanos(T0 + 4010),
  ...over,
});

describe('otlpToTraces', () => {
  it('maps ids, times, status, kind, resource, scope, events and links', () => {
    const { payloads, rejected } = otlpToTraces(
      request([
        span({
          status: { code: 2, message: 'model timed out' },
          traceState: 'vendor=1',
          attributes: [str('http.method', 'POST')],
          events: [{ timeUnixNano: nanos(T0 + 20), name: 'retry', attributes: [int('attempt', '2')] }],
          links: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), attributes: [str('why', 'batch')] }],
        }),
      ]),
    );
    expect(rejected).toEqual([]);
    expect(payloads).toHaveLength(1);
    const { trace } = payloads[0];
    expect(trace.id).toBe(TRACE);
    expect(trace.name).toBeUndefined(); // no root span in this export: the trace stays as it was
    expect(trace.spans[0]).toEqual({
      id: CHILD,
      parentId: ROOT,
      name: 'generate',
      // The nanoseconds to the microsecond (…123456 ns past the millisecond: 0.123 ms).
      startTime: T0 + 10.123,
      endTime: T0 + 4010.123,
      status: 'error',
      statusMessage: 'model timed out',
      attributes: {
        'http.method': 'POST',
        'otel.span_kind': 'CLIENT',
        'otel.resource': { 'service.name': 'render-farm' },
        'otel.scope': { name: 'video-sdk', version: '1.2.0' },
        'otel.trace_state': 'vendor=1',
        'otel.links': [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), attributes: { why: 'batch' } }],
      },
      events: [{ name: 'retry', time: T0 + 20.123, attributes: { attempt: 2 } }],
    });
  });

  it('names, times and ends the trace from its root span', () => {
    const root = span({ spanId: ROOT, parentSpanId: '', name: 'pipeline', status: { code: 1 }, kind: 1 });
    const { payloads } = otlpToTraces(request([span(), root]));
    expect(payloads[0].trace).toMatchObject({ id: TRACE, name: 'pipeline', startTime: T0 + 10.123, endTime: T0 + 4010.123, status: 'ok' });
    expect(payloads[0].trace.spans[1]).toMatchObject({ id: ROOT, parentId: null, status: 'ok' });
  });

  it('maps the GenAI semantic conventions into kind, model, usage, input and output', () => {
    const messages = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'a fox' }] }]);
    const { payloads } = otlpToTraces(
      request([
        span({
          attributes: [
            str('gen_ai.operation.name', 'chat'),
            str('gen_ai.provider.name', 'openai'),
            str('gen_ai.request.model', 'gpt-4o'),
            str('gen_ai.response.model', 'gpt-4o-2024-08-06'),
            int('gen_ai.usage.input_tokens', '120'),
            int('gen_ai.usage.output_tokens', 30),
            str('gen_ai.input.messages', messages),
            str('gen_ai.output.messages', 'plain text answer'),
          ],
        }),
      ]),
    );
    const mapped = payloads[0].trace.spans[0];
    expect(mapped).toMatchObject({
      kind: 'generation',
      model: 'gpt-4o-2024-08-06',
      usage: { inputTokens: 120, outputTokens: 30 },
      input: [{ role: 'user', parts: [{ type: 'text', content: 'a fox' }] }],
      output: 'plain text answer',
    });
    // Every original attribute stays one (API.md), the messages included.
    expect(mapped.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': messages,
      'gen_ai.output.messages': 'plain text answer',
    });
  });

  it("keeps a prompt too big for attributes as the span's input only, with a note of where it went", () => {
    const prompt = 'a fox in the snow, '.repeat(5000); // ~95 KB: over the 64 KiB of attributes, within input's 1 MiB
    const { payloads } = otlpToTraces(request([span({ attributes: [str('gen_ai.request.model', 'veo-3'), str('gen_ai.prompt', prompt), str('output.value', 'done')] })]));
    const mapped = payloads[0].trace.spans[0];
    expect(mapped.input).toBe(prompt);
    expect(mapped.output).toBe('done');
    const attributes = mapped.attributes as Record<string, unknown>;
    expect(attributes['gen_ai.request.model']).toBe('veo-3');
    expect(attributes['gen_ai.prompt']).toMatch(/moved to the span's input/);
    expect(attributes['output.value']).toMatch(/moved to the span's output/);
    expect(Buffer.byteLength(JSON.stringify(attributes))).toBeLessThan(64 * 1024);
  });

  it.each([
    ['embeddings', 'embedding'],
    ['execute_tool', 'tool'],
    ['invoke_agent', 'agent'],
    ['text_completion', 'generation'],
  ])('gen_ai.operation.name %s is a %s span', (operation, kind) => {
    const { payloads } = otlpToTraces(request([span({ attributes: [str('gen_ai.operation.name', operation)] })]));
    expect(payloads[0].trace.spans[0].kind).toBe(kind);
  });

  it('maps OpenInference attributes', () => {
    const { payloads } = otlpToTraces(
      request([
        span({
          attributes: [
            str('openinference.span.kind', 'LLM'),
            str('llm.model_name', 'claude-sonnet'),
            int('llm.token_count.prompt', 11),
            int('llm.token_count.completion', 7),
            int('llm.token_count.total', 18),
            str('input.value', '{"prompt":"a fox"}'),
            str('input.mime_type', 'application/json'),
            str('output.value', 'done'),
          ],
        }),
      ]),
    );
    expect(payloads[0].trace.spans[0]).toMatchObject({
      kind: 'llm',
      model: 'claude-sonnet',
      usage: { inputTokens: 11, outputTokens: 7, totalTokens: 18 },
      input: { prompt: 'a fox' },
      output: 'done',
    });
  });

  it('maps cinetrace.video attributes into usage and a media output', () => {
    const { payloads } = otlpToTraces(
      request([
        span({
          attributes: [
            dbl('cinetrace.video.duration_seconds', 4.5),
            int('cinetrace.video.width', 1280),
            int('cinetrace.video.height', 720),
            dbl('cinetrace.video.fps', 24),
            int('cinetrace.video.frame_count', 108),
            int('cinetrace.video.seed', 42),
            str('cinetrace.video.output.url', 'https://cdn.example/fox.mp4'),
            str('cinetrace.video.output.content_type', 'video/mp4'),
            dbl('cinetrace.video.generation_seconds', 31.2),
          ],
        }),
      ]),
    );
    const mapped = payloads[0].trace.spans[0];
    expect(mapped).toMatchObject({
      kind: 'generation',
      usage: { videoSeconds: 4.5, frames: 108 },
      output: { url: 'https://cdn.example/fox.mp4', contentType: 'video/mp4', width: 1280, height: 720, fps: 24, durationSeconds: 4.5, frameCount: 108, seed: 42 },
    });
    expect(mapped.attributes).toMatchObject({ 'cinetrace.video.generation_seconds': 31.2, 'cinetrace.video.seed': 42 });
  });

  it('refuses a span it cannot read on its own and maps the others', () => {
    const { payloads, rejected } = otlpToTraces(
      request([span({ traceId: 'xyz' }), span({ spanId: '0000000000000000' }), span({ startTimeUnixNano: '0' }), span({ spanId: ROOT })]),
    );
    expect(rejected.map((r) => r.message)).toEqual([expect.stringMatching(/^traceId/), expect.stringMatching(/^spanId/), expect.stringMatching(/^startTimeUnixNano/)]);
    expect(payloads[0].trace.spans.map((s) => s.id)).toEqual([ROOT]);
  });

  it('keeps a __proto__ attribute key out and bounds value nesting', () => {
    let deep: object = { stringValue: 'x' };
    for (let i = 0; i < 100; i++) deep = { arrayValue: { values: [deep] } };
    const { payloads, rejected } = otlpToTraces(
      request([
        span({ attributes: [{ key: '__proto__', value: { kvlistValue: { values: [str('polluted', 'yes')] } } }] }),
        span({ spanId: ROOT, attributes: [{ key: 'deep', value: deep }] }),
      ]),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(payloads[0].trace.spans[0].attributes).not.toHaveProperty('polluted');
    expect(rejected).toEqual([{ traceId: TRACE, spanId: ROOT, message: expect.stringMatching(/nests deeper/) }]);
  });

  it('groups spans by trace id and splits a trace into payloads of at most 1000 spans', () => {
    const many = Array.from({ length: 1001 }, (_, i) => span({ spanId: (i + 1).toString(16).padStart(16, '0') }));
    const other = span({ traceId: 'ab'.repeat(16) });
    const { payloads } = otlpToTraces(request([...many, other]));
    expect(payloads.map((p) => [p.trace.id, p.trace.spans.length])).toEqual([
      [TRACE, 1000],
      [TRACE, 1],
      ['ab'.repeat(16), 1],
    ]);
  });

  it('refuses a body that is not an export request', () => {
    expect(() => otlpToTraces([])).toThrow(/ExportTraceServiceRequest/);
    expect(() => otlpToTraces({ resourceSpans: 'x' })).toThrow(/resourceSpans/);
    expect(otlpToTraces({})).toEqual({ payloads: [], rejected: [] });
  });
});
