import type { ModelPrices } from './price-table';
import type { SpanResolution } from './resolution';

/**
 * A span's cost from its usage and its model's prices, or null when none of its usage has
 * a price (nor a request price): an unknown cost stays unknown rather than 0.
 *
 * - `inputTokens` counts every input token, cached ones included (OpenTelemetry's
 *   `gen_ai.usage.input_tokens`, OpenAI's `prompt_tokens`); `cachedInputTokens` says how many
 *   of them were read from a cache. With a `cached_input_token` price those are billed at
 *   it and the rest at `input_token`; without one, all of them at `input_token`.
 * - `outputTokens` at `output_token`, `videoSeconds` at `video_second`, `images` at `image`.
 * - `request`: once per span.
 * A quantity without a price adds nothing.
 */
export function spanCost(prices: ModelPrices, usage: Record<string, number> | null, resolution: () => SpanResolution | null): number | null {
  let cost = 0;
  let priced = false;
  const add = (quantity: number | undefined, usd: number | undefined) => {
    if (quantity === undefined || usd === undefined || !Number.isFinite(quantity)) return;
    cost += quantity * usd;
    priced = true;
  };
  const input = usage?.inputTokens;
  const cached = usage?.cachedInputTokens;
  const cachedPrice = cached === undefined ? undefined : prices.priceOf('cached_input_token', resolution);
  if (cachedPrice !== undefined) {
    add(cached, cachedPrice);
    add(input === undefined ? undefined : Math.max(0, input - cached!), prices.priceOf('input_token', resolution));
  } else {
    add(input, prices.priceOf('input_token', resolution));
  }
  if (usage) {
    add(usage.outputTokens, prices.priceOf('output_token', resolution));
    add(usage.videoSeconds, prices.priceOf('video_second', resolution));
    add(usage.images, prices.priceOf('image', resolution));
  }
  add(1, prices.priceOf('request', resolution));
  return priced ? roundUsd(cost) : null;
}

/** Twelve decimals: a token of the cheapest model is about 1e-8 USD, and float products leave dust below. */
const roundUsd = (usd: number) => Math.round(usd * 1e12) / 1e12;
