import type { CostSource, SpanInput, TraceInput } from '@cinetrace/contracts';
import type { StoredSpan, TraceState } from '@cinetrace/traces';
import type { PriceTable } from './price-table';
import { spanResolution } from './resolution';
import { spanCost } from './span-cost';

/**
 * The input with each span's cost said before it merges (the input itself when no span
 * changes): a cost the client sent is `sent`; a span without one gets one from its model,
 * usage and resolution as they will stand after the merge (the stored span's, where the
 * input leaves a field out), marked `computed`. A sent cost is kept over later inputs that
 * send none; a computed one is worked out again whenever the span changes, with the prices
 * of that moment.
 */
export function priceTrace(input: TraceInput, state: TraceState | undefined, table: PriceTable): TraceInput {
  let spans: SpanInput[] | undefined;
  for (let i = 0; i < input.spans.length; i++) {
    const span = input.spans[i];
    const priced = priceSpan(span, state?.spans.get(span.id), table);
    if (priced === span) continue;
    spans ??= input.spans.slice();
    spans[i] = priced;
  }
  return spans ? Object.assign({}, input, { spans }) : input;
}

function priceSpan(span: SpanInput, before: StoredSpan | undefined, table: PriceTable): SpanInput {
  if (typeof span.costUsd === 'number') return span.costSource === 'sent' ? span : withCost(span, span.costUsd, 'sent');
  if (span.costUsd === undefined && before?.costSource === 'sent') return span;
  const model = span.model !== undefined ? span.model : (before?.model ?? null);
  const prices = model ? table.pricesOf(model) : null;
  if (prices) {
    const usage = span.usage !== undefined ? span.usage : (before?.usage ?? null);
    const resolution = prices.byResolution ? spanResolution(span.output !== undefined ? span.output : before?.output, span.attributes ?? before?.attributes) : null;
    const costUsd = spanCost(prices, usage, resolution);
    if (costUsd !== null) return withCost(span, costUsd, 'computed');
  }
  // No price now: a cost computed before no longer holds, and a cost the client cleared has no source.
  if (before?.costSource === 'computed' || (span.costUsd === null && before?.costSource)) return withCost(span, null, null);
  return span;
}

/**
 * A copy of the span with its cost said. Object.assign, not a spread: on Node 20 a spread of
 * a span measured ten times as dear, and this runs for every span that has a cost.
 */
function withCost(span: SpanInput, costUsd: number | null, costSource: CostSource | null): SpanInput {
  const priced = Object.assign({}, span);
  priced.costUsd = costUsd;
  priced.costSource = costSource;
  return priced;
}
