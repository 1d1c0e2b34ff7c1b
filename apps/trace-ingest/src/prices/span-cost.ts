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
 * A quantity without a price adds nothing. `resolution` is the span's (read only when a price
 * depends on it: ModelPrices.byResolution). No closure or object is made per span.
 */
export function spanCost(prices: ModelPrices, usage: Record<string, number> | null, resolution: SpanResolution | null): number | null {
  const input = usage?.inputTokens;
  const cached = usage?.cachedInputTokens;
  const cachedPrice = cached === undefined ? undefined : prices.priceOf('cached_input_token', resolution);
  let cost: number | null = null;
  if (cachedPrice === undefined) cost = plus(cost, term(input, prices.priceOf('input_token', resolution)));
  else {
    cost = plus(cost, term(cached, cachedPrice));
    cost = plus(cost, term(input === undefined ? undefined : Math.max(0, input - cached!), prices.priceOf('input_token', resolution)));
  }
  cost = plus(cost, term(usage?.outputTokens, prices.priceOf('output_token', resolution)));
  cost = plus(cost, term(usage?.videoSeconds, prices.priceOf('video_second', resolution)));
  cost = plus(cost, term(usage?.images, prices.priceOf('image', resolution)));
  cost = plus(cost, term(1, prices.priceOf('request', resolution)));
  return cost === null ? null : roundUsd(cost);
}

/** What a quantity costs at a price, or undefined when either is missing. */
const term = (quantity: number | undefined, usd: number | undefined): number | undefined =>
  quantity === undefined || usd === undefined || !Number.isFinite(quantity) ? undefined : quantity * usd;

/** A running sum that stays null until a term has a price. */
const plus = (sum: number | null, usd: number | undefined): number | null => (usd === undefined ? sum : (sum ?? 0) + usd);

/** Twelve decimals: a token of the cheapest model is about 1e-8 USD, and float products leave dust below. */
const roundUsd = (usd: number) => Math.round(usd * 1e12) / 1e12;
