import type { ModelPriceEntry, ModelPriceUnit } from '@cinetrace/contracts';

/**
 * The prices the service ships (docs/api-reference.md, "Model prices"): common LLM and
 * video models, as publicly listed on the date below. Prices change and this table does not
 * follow them: a project sets its own (PUT /api/v1/model-prices), which win.
 *
 * Sources: the providers' price pages (OpenAI, Anthropic, Google's Gemini API and Vertex AI,
 * Runway's API at $0.01 a credit); LLM prices cross-checked with LiteLLM's public price table.
 * Kling, Pika and Luma's Ray 2 at fal.ai's listed prices (their makers list no per-second API
 * price of their own). Only the standard tier: no batch, flex or priority prices, no long-
 * context tiers (Gemini 2.5 Pro and Claude Sonnet 4.x above 200k input tokens cost more), no
 * cache writes (billed as input). Veo at its price with audio.
 */
export const DEFAULT_MODEL_PRICES_AS_OF = '2026-12-07T00:00:00.000Z';

/** USD per million tokens, as price pages write them, to USD per token. */
const perToken = (usdPerMillion: number) => Number((usdPerMillion / 1e6).toPrecision(12));

/** Input, cached input (omitted: no cache price) and output, per million tokens, for each name. */
function tokens(names: string[], input: number, cachedInput: number | null, output: number): ModelPriceEntry[] {
  return names.flatMap((match) => [
    { match, unit: 'input_token' as const, usd: perToken(input) },
    ...(cachedInput === null ? [] : [{ match, unit: 'cached_input_token' as const, usd: perToken(cachedInput) }]),
    { match, unit: 'output_token' as const, usd: perToken(output) },
  ]);
}

/** One price per unit for each match; `byResolution` adds the resolutions priced otherwise. */
function per(unit: ModelPriceUnit, matches: ModelPriceEntry['match'][], usd: number, byResolution: Record<string, number> = {}): ModelPriceEntry[] {
  return matches.flatMap((match) => [{ match, unit, usd }, ...Object.entries(byResolution).map(([resolution, price]) => ({ match, unit, usd: price, resolution }))]);
}

// Names match a model's family too (baseModelName): `gpt-4o` prices `openai/gpt-4o-2024-08-06`.
export const DEFAULT_MODEL_PRICES: readonly ModelPriceEntry[] = [
  // OpenAI
  ...tokens(['gpt-4o'], 2.5, 1.25, 10),
  ...tokens(['gpt-4o-2024-05-13'], 5, null, 15),
  ...tokens(['gpt-4o-mini'], 0.15, 0.075, 0.6),
  ...tokens(['gpt-4.1'], 2, 0.5, 8),
  ...tokens(['gpt-4.1-mini'], 0.4, 0.1, 1.6),
  ...tokens(['gpt-4.1-nano'], 0.1, 0.025, 0.4),
  ...tokens(['gpt-5'], 1.25, 0.125, 10),
  ...tokens(['gpt-5-mini'], 0.25, 0.025, 2),
  ...tokens(['gpt-5-nano'], 0.05, 0.005, 0.4),
  ...tokens(['o1'], 15, 7.5, 60),
  ...tokens(['o1-mini', 'o3-mini'], 1.1, 0.55, 4.4),
  ...tokens(['o1-pro'], 150, null, 600),
  ...tokens(['o3'], 2, 0.5, 8),
  ...tokens(['o3-pro'], 20, null, 80),
  ...tokens(['o4-mini'], 1.1, 0.275, 4.4),
  // Anthropic (cached input: cache reads)
  ...tokens(['claude-opus-4-5'], 5, 0.5, 25),
  ...tokens(['claude-opus-4-1', 'claude-opus-4', 'claude-4-opus', 'claude-3-opus'], 15, 1.5, 75),
  ...tokens(['claude-sonnet-4-5', 'claude-sonnet-4', 'claude-4-sonnet', 'claude-3-7-sonnet', 'claude-3-5-sonnet'], 3, 0.3, 15),
  ...tokens(['claude-haiku-4-5'], 1, 0.1, 5),
  ...tokens(['claude-3-5-haiku'], 0.8, 0.08, 4),
  ...tokens(['claude-3-haiku'], 0.25, 0.03, 1.25),
  // Google Gemini (prompts up to 200k tokens; 128k for 1.5 Pro)
  ...tokens(['gemini-3-pro'], 2, 0.2, 12),
  ...tokens(['gemini-2.5-pro'], 1.25, 0.125, 10),
  ...tokens(['gemini-2.5-flash'], 0.3, 0.03, 2.5),
  ...tokens(['gemini-2.5-flash-lite'], 0.1, 0.01, 0.4),
  ...tokens(['gemini-2.0-flash'], 0.1, 0.025, 0.4),
  ...tokens(['gemini-2.0-flash-lite'], 0.075, null, 0.3),
  ...tokens(['gemini-1.5-pro'], 1.25, null, 5),
  ...tokens(['gemini-1.5-flash'], 0.075, null, 0.3),
  // Images
  ...per('image', ['imagen-4.0'], 0.04),
  ...per('image', ['imagen-4.0-fast'], 0.02),
  ...per('image', ['imagen-4.0-ultra'], 0.06),
  ...per('image', ['imagen-3.0'], 0.03),
  // Video, per second of output. Google Veo (720p and 1080p alike):
  ...per('video_second', ['veo-3.1', 'veo-3.0', 'veo-3'], 0.4),
  ...per('video_second', ['veo-3.1-fast', 'veo-3.0-fast', 'veo-3-fast'], 0.15),
  ...per('video_second', ['veo-2.0', 'veo-2'], 0.35),
  // OpenAI Sora (720x1280; Sora 2 Pro's 1024x1792 costs more):
  ...per('video_second', ['sora-2'], 0.1),
  ...per('video_second', ['sora-2-pro'], 0.3, { '1024x1792': 0.5 }),
  // Runway:
  ...per('video_second', ['gen4_turbo', 'gen3a_turbo'], 0.05),
  ...per('video_second', ['gen4_aleph'], 0.15),
  // Luma Ray 2 (540p; 720p and 1080p cost more):
  ...per('video_second', ['ray-2'], 0.1, { '720p': 0.2, '1080p': 0.4 }),
  ...per('video_second', ['ray-2-flash', 'ray-flash-2'], 0.04, { '720p': 0.08, '1080p': 0.16 }),
  // Kling (fal.ai's model routes):
  ...per('video_second', [{ regex: 'kling-video/v2\\.1/standard/' }], 0.05),
  ...per('video_second', [{ regex: 'kling-video/v2\\.1/pro/' }], 0.09),
  ...per('video_second', [{ regex: 'kling-video/v2\\.1/master/' }], 0.28),
  ...per('video_second', [{ regex: 'kling-video/v2\\.5-turbo/pro/' }], 0.07),
  // Pika (fal.ai's model routes; 720p, 1080p costs more):
  ...per('video_second', [{ regex: 'pika/v2\\.2/' }], 0.04, { '1080p': 0.09 }),
];
