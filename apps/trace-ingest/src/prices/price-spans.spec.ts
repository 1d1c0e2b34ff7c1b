import type { SpanInput, TraceInput } from '@cinetrace/contracts';
import type { StoredSpan, TraceState } from '@cinetrace/traces';
import { PriceTable, PriceTableDefaults } from './price-table';
import { priceTrace } from './price-spans';

const TABLE = PriceTable.of(
  [
    { match: 'gpt-4o', unit: 'input_token', usd: 1e-6 },
    { match: 'gpt-4o', unit: 'output_token', usd: 4e-6 },
    { match: 'veo-3', unit: 'video_second', usd: 0.4 },
    { match: 'veo-3', unit: 'video_second', usd: 0.6, resolution: '4k' },
  ],
  new PriceTableDefaults([]),
);

const trace = (...spans: SpanInput[]): TraceInput => ({ id: 'tr_1', spans });
const stored = (span: Partial<StoredSpan>): TraceState =>
  ({
    trace: {} as TraceState['trace'],
    spans: new Map([
      [
        's1',
        {
          id: 's1',
          parentId: null,
          name: 'call',
          kind: 'llm',
          status: 'unset',
          statusMessage: null,
          startTime: 0,
          endTime: null,
          model: null,
          input: null,
          output: null,
          usage: null,
          costUsd: null,
          costSource: null,
          attributes: null,
          events: null,
          ...span,
        },
      ],
    ]),
  }) satisfies TraceState;

const priced = (input: TraceInput, state?: TraceState) => priceTrace(input, state, TABLE).spans[0];

describe('priceTrace', () => {
  it('computes the cost of a span with a priced model and usage, and says so', () => {
    expect(priced(trace({ id: 's1', model: 'gpt-4o', usage: { inputTokens: 1000, outputTokens: 100 } }))).toMatchObject({ costUsd: 0.0014, costSource: 'computed' });
  });

  it('marks a cost the client sent as sent, and never prices over it', () => {
    expect(priced(trace({ id: 's1', model: 'gpt-4o', usage: { inputTokens: 1000 }, costUsd: 0.5 }))).toMatchObject({ costUsd: 0.5, costSource: 'sent' });
    // A later part of the span without a cost keeps the one sent.
    const later = trace({ id: 's1', usage: { inputTokens: 5000 } });
    expect(priced(later, stored({ model: 'gpt-4o', costUsd: 0.5, costSource: 'sent' }))).toBe(later.spans[0]);
  });

  it('leaves a span without a model, or of a model without prices, as it came', () => {
    const input = trace({ id: 's1', usage: { inputTokens: 1000 } }, { id: 's2', model: 'unknown-model', usage: { inputTokens: 1 } });
    expect(priceTrace(input, undefined, TABLE)).toBe(input);
  });

  it('prices a span sent in parts: the model from the stored span, the usage from this part', () => {
    expect(priced(trace({ id: 's1', usage: { outputTokens: 1000 } }), stored({ model: 'gpt-4o' }))).toMatchObject({ costUsd: 0.004, costSource: 'computed' });
  });

  it('prices video seconds at the resolution of the output, stored or sent', () => {
    const fourK = { url: 'https://cdn.example/a.mp4', width: 3840, height: 2160 };
    expect(priced(trace({ id: 's1', model: 'veo-3', usage: { videoSeconds: 8 }, output: fourK }))).toMatchObject({ costUsd: 4.8 });
    expect(priced(trace({ id: 's1', usage: { videoSeconds: 8 } }), stored({ model: 'veo-3', output: fourK }))).toMatchObject({ costUsd: 4.8 });
    expect(priced(trace({ id: 's1', model: 'veo-3', usage: { videoSeconds: 8 }, attributes: { 'cinetrace.video.width': 1280, 'cinetrace.video.height': 720 } }))).toMatchObject({
      costUsd: 3.2,
    });
  });

  it('works a computed cost out again when the span changes, and drops it when its model loses its prices', () => {
    const before = stored({ model: 'gpt-4o', usage: { inputTokens: 1000 }, costUsd: 0.001, costSource: 'computed' });
    expect(priced(trace({ id: 's1', usage: { inputTokens: 2000 } }), before)).toMatchObject({ costUsd: 0.002, costSource: 'computed' });
    expect(priced(trace({ id: 's1', model: 'unknown-model' }), before)).toMatchObject({ costUsd: null, costSource: null });
  });

  it('takes a cost the client clears (null) as no longer sent: computed when it can be', () => {
    const before = stored({ model: 'gpt-4o', usage: { inputTokens: 1000 }, costUsd: 0.5, costSource: 'sent' });
    expect(priced(trace({ id: 's1', costUsd: null }), before)).toMatchObject({ costUsd: 0.001, costSource: 'computed' });
    expect(priced(trace({ id: 's1', model: 'unknown-model', costUsd: null }), before)).toMatchObject({ costUsd: null, costSource: null });
  });

  it('copies only the spans it prices; the input is not changed', () => {
    const plain: SpanInput = { id: 's2', name: 'plain' };
    const input = trace({ id: 's1', model: 'gpt-4o', usage: { inputTokens: 1 } }, plain);
    const out = priceTrace(input, undefined, TABLE);
    expect(out.spans[1]).toBe(plain);
    expect(input.spans[0]).not.toHaveProperty('costSource');
  });
});
