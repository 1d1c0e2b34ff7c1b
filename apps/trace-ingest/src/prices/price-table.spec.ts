import type { ModelPriceEntry } from '@cinetrace/contracts';
import { PriceTable, PriceTableDefaults } from './price-table';
import type { SpanResolution } from './resolution';

const DEFAULTS = new PriceTableDefaults([
  { match: 'gpt-4o', unit: 'input_token', usd: 2.5e-6 },
  { match: 'gpt-4o', unit: 'output_token', usd: 1e-5 },
  { match: 'gpt-4o-2024-05-13', unit: 'input_token', usd: 5e-6 },
  { match: 'sora-2-pro', unit: 'video_second', usd: 0.3 },
  { match: 'sora-2-pro', unit: 'video_second', usd: 0.5, resolution: '1024x1792' },
  { match: 'ray-2', unit: 'video_second', usd: 0.1 },
  { match: 'ray-2', unit: 'video_second', usd: 0.4, resolution: '1080p' },
]);

const table = (project: ModelPriceEntry[] = []) => PriceTable.of(project, DEFAULTS);
const at = (resolution: SpanResolution | null) => resolution;
const noResolution = null;
const p1080: SpanResolution = { size: 'd1080x1920', shortSide: 'p1080' };

describe('PriceTable', () => {
  it('prices a model by its name, its name after a provider prefix and its family, the exact name first', () => {
    const prices = table();
    expect(prices.pricesOf('gpt-4o')!.priceOf('input_token', noResolution)).toBe(2.5e-6);
    expect(prices.pricesOf('openai/gpt-4o-2024-08-06')!.priceOf('input_token', noResolution)).toBe(2.5e-6);
    expect(prices.pricesOf('GPT-4o-2024-05-13')!.priceOf('input_token', noResolution)).toBe(5e-6);
    expect(prices.pricesOf('azure/gpt-4o-2024-05-13')!.priceOf('input_token', noResolution)).toBe(5e-6);
    // The dated model has no output price of its own: its family's.
    expect(prices.pricesOf('gpt-4o-2024-05-13')!.priceOf('output_token', noResolution)).toBe(1e-5);
  });

  it('has no prices for a model no entry names (gpt-4o-mini is not gpt-4o)', () => {
    expect(table().pricesOf('gpt-4o-mini')).toBeNull();
    expect(table().pricesOf('my-model')).toBeNull();
  });

  it("lets the project's entries win, unit by unit, over the defaults", () => {
    const prices = table([{ match: 'gpt-4o', unit: 'input_token', usd: 1e-6 }]).pricesOf('gpt-4o')!;
    expect(prices.priceOf('input_token', noResolution)).toBe(1e-6);
    expect(prices.priceOf('output_token', noResolution)).toBe(1e-5);
  });

  it('matches a regex case-insensitively anywhere in the model name, after the names', () => {
    const prices = table([
      { match: { regex: '^acme-video' }, unit: 'video_second', usd: 0.2 },
      { match: 'acme-video-2', unit: 'video_second', usd: 0.3 },
    ]);
    expect(prices.pricesOf('ACME-video-1')!.priceOf('video_second', noResolution)).toBe(0.2);
    expect(prices.pricesOf('acme-video-2')!.priceOf('video_second', noResolution)).toBe(0.3);
    expect(prices.pricesOf('other/acme-video-1')).toBeNull();
  });

  it('picks a video price by the exact size, then the shorter side, then the price without resolution', () => {
    const sora = table().pricesOf('sora-2-pro')!;
    expect(sora.priceOf('video_second', at({ size: 'd1024x1792', shortSide: 'p1024' }))).toBe(0.5);
    expect(sora.priceOf('video_second', at({ size: 'd720x1280', shortSide: 'p720' }))).toBe(0.3);
    expect(sora.priceOf('video_second', noResolution)).toBe(0.3);
    const ray = table().pricesOf('fal-ai/luma-dream-machine/ray-2')!;
    expect(ray.priceOf('video_second', at(p1080))).toBe(0.4);
    expect(ray.priceOf('video_second', at({ size: null, shortSide: 'p1080' }))).toBe(0.4);
    expect(ray.priceOf('video_second', at({ size: null, shortSide: 'p540' }))).toBe(0.1);
  });

  it("takes the project's price for a resolution, and falls back to the defaults when the project prices only others", () => {
    const prices = table([{ match: 'ray-2', unit: 'video_second', usd: 0.9, resolution: '4k' }]).pricesOf('ray-2')!;
    expect(prices.priceOf('video_second', at({ size: 'd2160x3840', shortSide: 'p2160' }))).toBe(0.9);
    expect(prices.priceOf('video_second', at(p1080))).toBe(0.4);
    expect(prices.priceOf('video_second', noResolution)).toBe(0.1);
  });

  it('says whether a price depends on the resolution, so that a span is read for it only then', () => {
    expect(table().pricesOf('gpt-4o')!.byResolution).toBe(false);
    expect(table().pricesOf('ray-2')!.byResolution).toBe(true);
    expect(table().pricesOf('gpt-4o')!.priceOf('input_token', p1080)).toBe(2.5e-6);
  });

  it('works a model out once, then answers the same prices', () => {
    const prices = table([{ match: { regex: 'gpt' }, unit: 'request', usd: 0.01 }]);
    expect(prices.pricesOf('gpt-4o')).toBe(prices.pricesOf('gpt-4o'));
  });

  it('skips a stored entry it cannot use (a regex RE2 refuses, a resolution that is none) instead of failing every batch', () => {
    const prices = table([
      { match: { regex: '(a)\\1' }, unit: 'request', usd: 1 },
      { match: 'acme', unit: 'video_second', usd: 1, resolution: 'hd' },
      { match: 'acme', unit: 'request', usd: 0.5 },
    ]);
    expect(prices.pricesOf('acme')!.priceOf('request', noResolution)).toBe(0.5);
    expect(prices.pricesOf('acme')!.priceOf('video_second', noResolution)).toBeUndefined();
  });
});
