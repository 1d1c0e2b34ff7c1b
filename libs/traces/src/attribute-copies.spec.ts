import type { TraceInput } from '@cinetrace/contracts';
import { COPY_PLACEHOLDER, restoreAttributeCopies, takeAttributeCopies } from './attribute-copies';

const prompt = { prompt: 'a lighthouse at dusk, slow dolly-in, 35mm film grain, waves below'.repeat(2) };
const caption = 'A lighthouse at dusk; the camera moves in slowly while the waves break below it.';

/** A trace as the OTLP mapping makes it: the payload parsed from an attribute that stays. */
function otlpTrace(): TraceInput {
  return {
    id: 'a'.repeat(32),
    spans: [
      {
        id: '0000000000000001',
        name: 'generate',
        startTime: 1,
        input: prompt,
        output: caption,
        attributes: {
          'openinference.span.kind': 'LLM',
          'input.value': JSON.stringify(prompt),
          'output.value': caption,
          // Pretty-printed: not the payload's JSON text, so it is no copy and stays.
          'gen_ai.input.messages': JSON.stringify(prompt, null, 2),
          ['__proto__']: JSON.stringify(prompt),
        },
      },
      { id: '0000000000000002', name: 'no payload', startTime: 2, attributes: { 'input.value': JSON.stringify(prompt) } },
    ],
  };
}

describe('attribute copies on the trace stream', () => {
  it('takes out each attribute that repeats its span input or output, and puts it back as it was', () => {
    const trace = otlpTrace();
    const original = trace.spans[0].attributes!;
    const copies = takeAttributeCopies(trace);

    expect(copies).toEqual([
      ['0000000000000001', 'input.value', 'input'],
      ['0000000000000001', 'output.value', 'output'],
      ['0000000000000001', '__proto__', 'input'],
    ]);
    const taken = trace.spans[0].attributes!;
    expect(Object.keys(taken)).toEqual(Object.keys(original));
    expect(taken['input.value']).toBe(COPY_PLACEHOLDER);
    expect(taken['gen_ai.input.messages']).toBe(original['gen_ai.input.messages']);
    // The caller's attributes object is not changed.
    expect(original['input.value']).toBe(JSON.stringify(prompt));
    // A span without input or output keeps its attributes.
    expect(trace.spans[1].attributes).toEqual({ 'input.value': JSON.stringify(prompt) });

    const onTheStream = JSON.parse(JSON.stringify({ trace, copies })) as { trace: TraceInput; copies: NonNullable<typeof copies> };
    expect(JSON.stringify(onTheStream).length).toBeLessThan(JSON.stringify(otlpTrace()).length - JSON.stringify(prompt).length);
    restoreAttributeCopies(onTheStream.trace, onTheStream.copies);
    expect(JSON.stringify(onTheStream.trace)).toBe(JSON.stringify(otlpTrace()));
    expect(Object.getPrototypeOf(onTheStream.trace.spans[0].attributes)).toBe(Object.prototype);
  });

  it('finds none in a trace whose attributes repeat nothing', () => {
    const trace: TraceInput = { id: 't', spans: [{ id: 's', name: 'n', startTime: 1, input: prompt, attributes: { short: 'x', other: 'y'.repeat(100) } }] };
    expect(takeAttributeCopies(trace)).toBeUndefined();
  });

  it('puts nothing back where the stream named an attribute that is not a placeholder', () => {
    const trace: TraceInput = { id: 't', spans: [{ id: 's', name: 'n', startTime: 1, input: prompt, attributes: { kept: 'as sent' } }] };
    restoreAttributeCopies(trace, [
      ['s', 'kept', 'input'],
      ['s', 'absent', 'input'],
      ['other', 'kept', 'input'],
    ]);
    expect(trace.spans[0].attributes).toEqual({ kept: 'as sent' });
  });
});
