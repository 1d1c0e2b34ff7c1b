import type { ModelPriceEntry } from '@cinetrace/contracts';
import { PriceTable, PriceTableDefaults } from './price-table';
import type { SpanResolution } from './resolution';
import { spanCost } from './span-cost';

const pricesOf = (entries: ModelPriceEntry[]) => PriceTable.of(entries, new PriceTableDefaults([])).pricesOf('m')!;
const none = null;
const LLM = pricesOf([
  { match: 'm', unit: 'input_token', usd: 2e-6 },
  { match: 'm', unit: 'cached_input_token', usd: 5e-7 },
  { match: 'm', unit: 'output_token', usd: 8e-6 },
]);

describe('spanCost', () => {
  it('bills input and output tokens', () => {
    expect(spanCost(LLM, { inputTokens: 1000, outputTokens: 500 }, none)).toBe(0.006);
  });

  it('bills cached input tokens at their price and not again as input: inputTokens counts them', () => {
    // 800 uncached at 2e-6, 200 cached at 5e-7, 100 output at 8e-6
    expect(spanCost(LLM, { inputTokens: 1000, cachedInputTokens: 200, outputTokens: 100 }, none)).toBe(0.0025);
  });

  it('bills cached input tokens as input when the model has no cached price', () => {
    const prices = pricesOf([{ match: 'm', unit: 'input_token', usd: 1e-6 }]);
    expect(spanCost(prices, { inputTokens: 1000, cachedInputTokens: 400 }, none)).toBe(0.001);
  });

  it('bills video seconds at the price of the span resolution, images, and a request price once per span', () => {
    const prices = pricesOf([
      { match: 'm', unit: 'video_second', usd: 0.1 },
      { match: 'm', unit: 'video_second', usd: 0.4, resolution: '1080p' },
      { match: 'm', unit: 'image', usd: 0.04 },
      { match: 'm', unit: 'request', usd: 0.01 },
    ]);
    const hd: SpanResolution = { size: 'd1080x1920', shortSide: 'p1080' };
    expect(spanCost(prices, { videoSeconds: 8 }, hd)).toBe(3.21);
    expect(spanCost(prices, { videoSeconds: 8 }, none)).toBe(0.81);
    expect(spanCost(prices, { images: 3 }, none)).toBe(0.13);
    expect(spanCost(prices, null, none)).toBe(0.01);
  });

  it('is null when nothing the span used has a price: an unknown cost is not 0', () => {
    expect(spanCost(LLM, { videoSeconds: 8, frames: 192 }, none)).toBeNull();
    expect(spanCost(LLM, null, none)).toBeNull();
    expect(spanCost(LLM, {}, none)).toBeNull();
  });

  it('counts a price of 0 as a price: the cost is 0, not unknown', () => {
    const free = pricesOf([{ match: 'm', unit: 'output_token', usd: 0 }]);
    expect(spanCost(free, { outputTokens: 10 }, none)).toBe(0);
  });
});
