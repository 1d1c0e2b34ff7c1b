import { MODEL_MATCH_SCHEMA, MODEL_PRICE_LIMITS, MODEL_PRICE_UNITS, RESOLUTION_PATTERN, RESOLUTION_UNITS } from '@cinetrace/contracts';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The model price table's body and `match` (model-prices.controller.ts): a union of a name and
 * `{ regex }`, which @nestjs/swagger cannot say, from the rules trace-ingest checks a PUT by.
 */
export function describeModelPrices(doc: OpenAPIObject): void {
  const schemas = doc.components!.schemas!;
  const match = {
    ...MODEL_MATCH_SCHEMA,
    description:
      'A model name: matches that name, the name after a provider prefix (`openai/gpt-4o`) and its family without version suffixes (`gpt-4o-2024-08-06`), case-insensitive; or `{ regex }` (RE2 syntax, linear time, case-insensitive) tested on the whole model name',
  };
  schemas.ModelPricesInput = {
    type: 'object',
    additionalProperties: false,
    required: ['entries'],
    properties: {
      entries: {
        type: 'array',
        maxItems: MODEL_PRICE_LIMITS.entries,
        description: `Replace the project's entries (at most ${MODEL_PRICE_LIMITS.regexEntries} matching by regex; no two with the same match, unit and resolution)`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['match', 'unit', 'usd'],
          properties: {
            match,
            unit: { type: 'string', enum: [...MODEL_PRICE_UNITS] },
            usd: { type: 'number', minimum: 0, maximum: MODEL_PRICE_LIMITS.usdMax, description: 'USD per unit' },
            resolution: {
              type: 'string',
              pattern: RESOLUTION_PATTERN.source,
              description: `Only for ${RESOLUTION_UNITS.join(' and ')} prices: spans of this resolution (\`720p\`, \`1080p\`, \`4k\`: the shorter side; \`1792x1024\`: both sides)`,
            },
          },
        },
      },
    },
  } as never;
  const view = schemas.ModelPriceView as { properties: Record<string, unknown> } | undefined;
  if (view) view.properties.match = match;
}
