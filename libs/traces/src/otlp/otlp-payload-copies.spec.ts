import { expect } from '@jest/globals';
import type { TraceInput } from '@cinetrace/contracts';
import { checkOtlpPayloadAlone } from './otlp-span-checks';
import { leaveOutOtlpPayloads, restoreOtlpPayloads } from './otlp-payload-copies';
import { otlpToTraces } from './otlp-to-traces';

const TRACE = '5b8efff798038103d269b633813fc60c';
const T0 = 1_780_000_000_000; // ms
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

const prompt = { prompt: 'a lighthouse at dusk, slow dolly-in, 35mm film grain, waves below', seed: 7 };
const caption = 'A lighthouse at dusk; the camera moves in slowly while the waves break below it.';

let nextSpan = 1;
const span = (attributes: object[]) => ({
  traceId: TRACE,
  spanId: (nextSpan++).toString(16).padStart(16, '0'),
  name: 'generate',
  startTimeUnixNano: nanos(T0),
  endTimeUnixNano: nanos(T0 + 4000),
  attributes,
});

/** The trace the gateway publishes for these spans: mapped, then validated. */
function validated(...spans: object[]): TraceInput {
  const { payloads } = otlpToTraces({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
  const checked = checkOtlpPayloadAlone(payloads[0].trace);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.trace;
}

/** Through the stream: left out, serialized, read back and restored. */
function throughTheStream(trace: TraceInput) {
  const { trace: sent, copies } = leaveOutOtlpPayloads(trace);
  const text = JSON.stringify({ trace: sent, copies });
  const read = JSON.parse(text) as { trace: TraceInput; copies?: Parameters<typeof restoreOtlpPayloads>[1] };
  if (read.copies) restoreOtlpPayloads(read.trace, read.copies);
  return { copies, text, restored: read.trace };
}

describe('OTLP payloads on the trace stream', () => {
  it("sends a span's input and output once, as the attributes they came from, and makes them again as the mapping did", () => {
    // Pretty-printed JSON: the restored input is what it parses to, and the attribute keeps the exporter's text.
    const trace = validated(span([str('input.value', JSON.stringify(prompt, null, 2)), str('input.mime_type', 'application/json'), str('output.value', caption)]));
    const before = JSON.stringify(trace);
    const { copies, text, restored } = throughTheStream(trace);

    // The span is the trace's root: the trace's input and output are its own, and travel once too.
    expect(copies).toEqual([
      [trace.spans[0].id, 'input', 'input.value', 'json'],
      [trace.spans[0].id, 'output', 'output.value', 'text'],
      [trace.spans[0].id, 'input', 'input.value', 'json', 'trace'],
      [trace.spans[0].id, 'output', 'output.value', 'text', 'trace'],
    ]);
    expect(restored).toEqual(trace);
    expect(restored.spans[0].input).toEqual(prompt);
    expect(restored.input).toEqual(prompt);
    expect(restored.input).toBe(restored.spans[0].input);
    expect(restored.output).toBe(caption);
    expect(restored.spans[0].attributes?.['input.value']).toBe(JSON.stringify(prompt, null, 2));
    // Each payload travels once, and the caller's trace is as it was.
    expect(text.split(caption)).toHaveLength(2);
    expect(text).not.toContain(JSON.stringify(prompt));
    expect(text).not.toMatch(/"(input|output)":/);
    expect(JSON.stringify(trace)).toBe(before);
  });

  it('takes each field from the attribute the mapping took it from (GenAI messages before input.value)', () => {
    const messages = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: caption }] }]);
    const trace = validated(span([str('input.value', JSON.stringify(prompt)), str('gen_ai.input.messages', messages)]));
    const { copies, restored } = throughTheStream(trace);
    expect(copies).toEqual([
      [trace.spans[0].id, 'input', 'gen_ai.input.messages', 'json'],
      [trace.spans[0].id, 'input', 'gen_ai.input.messages', 'json', 'trace'],
    ]);
    expect(restored).toEqual(trace);
    expect(restored.spans[0].input).toEqual(JSON.parse(messages));
  });

  it('leaves in what no single attribute holds: a moved payload, a video output, a short payload', () => {
    const big = 'a fox in the snow, '.repeat(5000); // over the 64 KiB of attributes: the attribute holds a note
    const moved = validated(span([str('gen_ai.prompt', big), str('output.value', caption)]));
    expect(moved.spans[0].attributes?.['gen_ai.prompt']).toMatch(/moved to the span's input/);
    const video = validated(span([str('output.value', caption), str('cinetrace.video.output.url', 'https://cdn.example.com/v.mp4')]));
    const short = validated(span([str('input.value', '{"seed":7}')]));

    for (const trace of [moved, video, short]) {
      const { copies, restored } = throughTheStream(trace);
      expect(copies).toBeUndefined();
      expect(restored).toEqual(trace);
    }
    expect(moved.spans[0].input).toBe(big);
    expect(video.spans[0].output).toMatchObject({ url: 'https://cdn.example.com/v.mp4', textOutput: caption });
  });

  it('leaves in an input that begins with the system instructions (made of two attributes), and the trace input it gives', () => {
    const instructions = JSON.stringify([{ type: 'text', content: caption }]);
    const messages = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: caption }] }]);
    const trace = validated(span([str('gen_ai.system_instructions', instructions), str('gen_ai.input.messages', messages), str('gen_ai.output.messages', messages)]));
    expect(trace.spans[0].input).toEqual([{ role: 'system', parts: JSON.parse(instructions) as unknown }, ...(JSON.parse(messages) as unknown[])]);
    const { copies, restored } = throughTheStream(trace);
    // The output, from one attribute, still travels once.
    expect(copies).toEqual([
      [trace.spans[0].id, 'output', 'gen_ai.output.messages', 'json'],
      [trace.spans[0].id, 'output', 'gen_ai.output.messages', 'json', 'trace'],
    ]);
    expect(restored).toEqual(trace);
  });

  it("sends the trace's input and output (its root span's) once, and only when the root's are left out", () => {
    const child = { ...span([str('input.value', caption)]), parentSpanId: '00000000000000ff' };
    const root = { ...span([str('input.value', JSON.stringify(prompt)), str('output.value', 'ok')]), spanId: '00000000000000ff' };
    const trace = validated(child, root);
    expect(trace.input).toEqual(prompt);
    expect(trace.output).toBe('ok');
    const { copies, text, restored } = throughTheStream(trace);
    // The root's output is too short to leave out: the trace's travels with it, as a value.
    expect(copies).toEqual([
      [child.spanId, 'input', 'input.value', 'text'],
      ['00000000000000ff', 'input', 'input.value', 'json'],
      ['00000000000000ff', 'input', 'input.value', 'json', 'trace'],
    ]);
    expect(text).not.toMatch(/"input":/);
    expect(text).toContain('"output":"ok"');
    expect(restored).toEqual(trace);
    // A record of the trace's field alone (its span's not left out) makes it from the attribute.
    const alone: TraceInput = { id: 't', spans: [{ id: 's', name: 'n', startTime: 1, attributes: { 'input.value': '{"a":1}' } }] };
    restoreOtlpPayloads(alone, [['s', 'input', 'input.value', 'json', 'trace']]);
    expect(alone).toEqual({ id: 't', input: { a: 1 }, spans: [{ id: 's', name: 'n', startTime: 1, attributes: { 'input.value': '{"a":1}' } }] });
  });

  it('refuses a record that names an attribute its span does not hold', () => {
    const trace: TraceInput = { id: 't', spans: [{ id: 's', name: 'n', startTime: 1, attributes: { 'input.value': 0 } }] };
    expect(() => restoreOtlpPayloads(trace, [['s', 'input', 'input.value', 'json']])).toThrow(/does not hold/);
    expect(() => restoreOtlpPayloads(trace, [['s', 'output', 'output.value', 'text']])).toThrow(/does not hold/);
    expect(() => restoreOtlpPayloads(trace, [['other', 'input', 'input.value', 'text']])).toThrow(/does not hold/);
    expect(() => restoreOtlpPayloads(trace, [['s', 'input', 'input.value', 'json', 'trace']])).toThrow(/does not hold/);
  });
});
