import type { TraceInput } from '@cinetrace/contracts';
import { COPY_PLACEHOLDER, restoreAttributeCopies } from './attribute-copies';

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

describe('attribute copies on the trace stream (records of gateways before payloadCopies)', () => {
  it('puts back each attribute such a gateway left out, as it was', () => {
    // What that gateway sent for otlpTrace(): the copies hold 0, and the copies are named.
    const onTheStream = otlpTrace();
    const sent = onTheStream.spans[0].attributes!;
    Object.assign(sent, { 'input.value': COPY_PLACEHOLDER, 'output.value': COPY_PLACEHOLDER });
    Object.defineProperty(sent, '__proto__', { value: COPY_PLACEHOLDER, enumerable: true, writable: true, configurable: true });
    const read = JSON.parse(JSON.stringify(onTheStream)) as TraceInput;

    restoreAttributeCopies(read, [
      ['0000000000000001', 'input.value', 'input'],
      ['0000000000000001', 'output.value', 'output'],
      ['0000000000000001', '__proto__', 'input'],
    ]);
    expect(JSON.stringify(read)).toBe(JSON.stringify(otlpTrace()));
    expect(Object.getPrototypeOf(read.spans[0].attributes)).toBe(Object.prototype);
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
