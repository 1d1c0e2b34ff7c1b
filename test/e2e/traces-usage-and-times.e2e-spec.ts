import { expect } from '@jest/globals';
import type { Api } from '@cinetrace/testing';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, exportSpans, otlpExporter, recordSpans, succeeded } from './support/otlp';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACES, TRACE_TEST_TIMEOUT_MS, TraceView, anId, ingest, readEventually, readNow } from './support/traces';
import { Answer } from './support/api-types';

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

/** The trace's cost under the API reference's rule, from its spans: a span with a descendant that has a cost does not count. */
function countedCost(spans: TraceView['spans']): number | null {
  const parentOf = new Map(spans.map((s) => [s.id, s.parentId]));
  const repeated = new Set<string>();
  for (const span of spans) {
    if (span.costUsd === null) continue;
    for (let at = parentOf.get(span.id); at; at = parentOf.get(at)) repeated.add(at);
  }
  const counted = spans.filter((s) => s.costUsd !== null && !repeated.has(s.id));
  return counted.length ? counted.reduce((sum, s) => sum + s.costUsd!, 0) : null;
}

/** An SDK time 250 µs after another ([seconds, nanoseconds]). */
const plus250Micros = ([seconds, nanos]: [number, number]): [number, number] => (nanos + 250_000 >= 1e9 ? [seconds + 1, nanos + 250_000 - 1e9] : [seconds, nanos + 250_000]);

describe('Traces: usage counted once, times to the microsecond', () => {
  const ctx = useStack();

  /**
   * An agent as the Vercel AI SDK records one (invoke_agent carries the sum of its chat
   * calls' usage) with a tool dispatch of 250 µs, exported over OTLP/protobuf as a batch
   * processor exports: the children, which end first, then their parent.
   */
  async function exportAgent(): Promise<TraceView> {
    const { key, api } = await inNewProject(ctx.api);
    const spans = recordSpans(({ start }) => {
      const agent = start('invoke_agent weather-agent', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 22, 'gen_ai.usage.output_tokens': 10 });
      const chat = (n: number) =>
        start(
          `chat gpt-4o-mini ${n}`,
          {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.request.model': 'gpt-4o-mini',
            'gen_ai.usage.input_tokens': 11,
            'gen_ai.usage.output_tokens': 5,
          },
          agent,
          SpanKind.CLIENT,
        );
      chat(1).end();
      const tool = start('execute_tool get_weather', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather' }, agent);
      tool.end(plus250Micros((tool as unknown as ReadableSpan).startTime));
      chat(2).end();
      agent.end();
    });
    const agent = spans.find((s) => s.name.startsWith('invoke_agent'))!;
    const exporter = otlpExporter(ctx.stack, { encoding: 'protobuf', projectKey: key, apiKey: ctx.stack.apiKey });
    const children = spans.filter((s) => s !== agent);
    expect(succeeded(await exportSpans(exporter, children))).toBe(true);
    expect(succeeded(await exportSpans(exporter, [agent]))).toBe(true);
    return readEventually(api, agent.spanContext().traceId, (t) => t.spanCount === 4);
  }

  it('an AI SDK agent exported over OTLP, children first, reads its 22/10 tokens once', async () => {
    const trace = await exportAgent();
    expect(trace.usage).toMatchObject({ inputTokens: 22, outputTokens: 10 });
    // The agent still shows its own figures.
    expect(trace.spans.find((s) => s.name.startsWith('invoke_agent'))!.usage).toMatchObject({ inputTokens: 22, outputTokens: 10 });
    const costUsd = countedCost(trace.spans);
    if (costUsd === null) expect(trace.costUsd).toBeNull();
    else expect(trace.costUsd).toBeCloseTo(costUsd, 9);
  });

  it('a 250 µs span exported over OTLP reads 0.25 ms (it read 0 while times were whole milliseconds)', async () => {
    const trace = await exportAgent();
    expect(trace.spans.find((s) => s.name.startsWith('execute_tool'))!.durationMs).toBe(0.25);
  });

  /** An agent over two chat calls sent to the JSON route in three POSTs (a child once its parent is stored), times with microseconds. */
  async function postAgent(): Promise<{ api: Api; id: string; trace: TraceView }> {
    const { api } = await inNewProject(ctx.api);
    const id = anId();
    const chat = (n: number) => ({
      id: `chat${n}`,
      parentId: 'agent',
      name: `chat ${n}`,
      kind: 'generation',
      startTime: `2026-12-07T10:00:0${n}.000000Z`,
      endTime: `2026-12-07T10:00:0${n}.500000Z`,
      usage: { inputTokens: 11, outputTokens: 5 },
      costUsd: 0.0011,
    });
    const lookup = { id: 'lookup', parentId: 'agent', name: 'cache lookup', startTime: '2026-12-07T10:00:00.100100Z', endTime: '2026-12-07T10:00:00.100350Z' };
    const agent = {
      id: 'agent',
      parentId: null,
      name: 'invoke_agent',
      kind: 'agent',
      startTime: '2026-12-07T10:00:00.000250Z',
      endTime: '2026-12-07T10:00:03.000750Z',
      usage: { inputTokens: 22, outputTokens: 10 },
      costUsd: 0.0022,
    };
    await ingest(api, { id, spans: [agent] }, { wait: true });
    await ingest(api, { id, spans: [chat(1), lookup] }, { wait: true });
    await ingest(api, { id, spans: [chat(2)] }, { wait: true });
    return { api, id, trace: await readNow(api, id) };
  }

  it('the JSON route counts a parent that repeats its children once, over several POSTs, in GET and the list', async () => {
    const { api, id, trace } = await postAgent();
    expect(trace.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
    expect(trace.costUsd).toBeCloseTo(0.0022, 9);
    const listed = await api.get<Answer<'listTraces'>>(TRACES);
    expect(listed.body.data.find((t) => t.id === id)!.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
  });

  it('the JSON route keeps the microseconds of ISO times: durations, and from/to within one millisecond', async () => {
    const { api, id, trace } = await postAgent();
    expect(trace.spans.find((s) => s.id === 'lookup')).toMatchObject({ durationMs: 0.25, startTime: '2026-12-07T10:00:00.100Z' });
    expect(trace.spans.find((s) => s.id === 'agent')!.durationMs).toBe(3000.5);
    // The trace starts with its earliest span (…000250).
    expect(trace.startTime).toBe('2026-12-07T10:00:00.000Z');
    const within = await api.get<Answer<'listTraces'>>(TRACES, { from: '2026-12-07T10:00:00.000200Z', to: '2026-12-07T10:00:00.000300Z' });
    expect(within.status).toBe(200);
    expect(within.body.data.map((t) => t.id)).toEqual([id]);
    const after = await api.get<Answer<'listTraces'>>(TRACES, { from: '2026-12-07T10:00:00.000251Z' });
    expect(after.body.data.map((t) => t.id)).not.toContain(id);
  });
});
