import { mergeTrace } from './merge-trace';
import { measureSpan, spanFieldTexts } from './span-json';
import type { StoredSpan } from './stored-trace';

describe('measureSpan', () => {
  it('is JSON.stringify of the span and its bytes, for spans as a merge builds them, and keeps each JSON field text', () => {
    const { changedSpans } = mergeTrace(
      'p1',
      undefined,
      {
        id: 't1',
        spans: [
          {
            id: 's1',
            name: 'root',
            startTime: 1000,
            endTime: 2000,
            input: { prompt: 'a "quoted" cat\n' },
            output: 'text',
            usage: { inputTokens: 3 },
            attributes: { 'gen.cfg': 7.5, nested: [1, { a: null }] },
            events: [{ name: 'e', time: 1500 }],
          },
          { id: 's2', parentId: 's1', name: 'bare', startTime: 1100 },
          { id: 's3', parentId: 's1', name: 'ünïcode 😀', kind: 'llm', status: 'error', statusMessage: 'x', startTime: 1200, model: 'm', costUsd: 0.0012 },
        ],
      },
      3000,
    );
    expect(changedSpans).toHaveLength(3);
    for (const span of changedSpans) {
      expect(measureSpan(span)).toEqual({ identity: JSON.stringify(span), bytes: Buffer.byteLength(JSON.stringify(span)) });
      const texts = spanFieldTexts(span)!;
      expect(texts).toEqual({
        input: JSON.stringify(span.input),
        output: JSON.stringify(span.output),
        usage: JSON.stringify(span.usage),
        events: JSON.stringify(span.events),
        storedAttributes: JSON.stringify(span.attributes),
        attributeCopies: null,
      });
    }
  });

  it('writes the attributes as stored too, with those repeating the input or output as the placeholder, in JSON.stringify order, and counts the bytes of the whole span', () => {
    const prompt = 'a slow dolly shot of a lighthouse at dusk, "film grain", 35mm\n'.repeat(2);
    const output = { video: 'https://cdn.example/v.mp4', frames: [1, 2, 3], note: 'x'.repeat(80), quoted: 'say "ünï" \\ 😀\t\u0001 \u2028' };
    const attributes: Record<string, unknown> = { z: 1, 'input.value': prompt, 'output.value': JSON.stringify(output), 2: 'two', nested: { a: [null] }, short: 'a' };
    Object.defineProperty(attributes, '__proto__', { value: prompt, enumerable: true, writable: true, configurable: true });
    const span: StoredSpan = {
      id: 's',
      parentId: null,
      name: 'generate',
      kind: 'llm',
      status: 'ok',
      statusMessage: null,
      startTime: 1,
      endTime: 2,
      model: 'm',
      input: prompt,
      output,
      usage: null,
      costUsd: null,
      costSource: null,
      attributes,
      events: null,
    };
    expect(measureSpan(span).bytes).toBe(Buffer.byteLength(JSON.stringify(span)));
    const texts = spanFieldTexts(span)!;
    const stored = JSON.parse(texts.storedAttributes) as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual(Object.keys(attributes));
    expect(stored).toEqual({ 2: 'two', z: 1, 'input.value': 0, 'output.value': 0, nested: { a: [null] }, short: 'a', ['__proto__']: 0 });
    expect(texts.attributeCopies).toEqual({ 'input.value': 'input', 'output.value': 'output', ['__proto__']: 'input' });
  });

  it('is JSON.stringify of a span as a row is read back (the same field order)', () => {
    const span: StoredSpan = {
      id: 'a',
      parentId: null,
      name: 'n',
      kind: 'span',
      status: 'ok',
      statusMessage: null,
      startTime: 5,
      endTime: null,
      model: null,
      input: null,
      output: [1, 2],
      usage: null,
      costUsd: null,
      costSource: null,
      attributes: null,
      events: null,
    };
    expect(measureSpan(span)).toEqual({ identity: JSON.stringify(span), bytes: Buffer.byteLength(JSON.stringify(span)) });
  });

  it('tells a copy of the input from an attribute holding what the placeholder holds', () => {
    const prompt = 'p'.repeat(100);
    const span = (attributes: Record<string, unknown>): StoredSpan => ({
      id: 's',
      parentId: null,
      name: 'n',
      kind: 'llm',
      status: 'ok',
      statusMessage: null,
      startTime: 1,
      endTime: 2,
      model: null,
      input: prompt,
      output: null,
      usage: null,
      costUsd: null,
      costSource: null,
      attributes,
      events: null,
    });
    const copy = span({ 'input.value': prompt });
    const zero = span({ 'input.value': 0 });
    const again = span({ 'input.value': prompt });
    expect(measureSpan(copy).identity).not.toBe(measureSpan(zero).identity);
    expect(measureSpan(copy).identity).toBe(measureSpan(again).identity);
    expect(measureSpan(zero).identity).toBe(JSON.stringify(zero));
  });
});
