import { MAX_SCORERS, SCORER_CONFIG_KEYS, SCORER_NAME_MAX, SCORER_TYPES, VIDEO_CONFIG_SCHEMAS } from '@cinetrace/scorers';
import type { OpenAPIObject } from '@nestjs/swagger';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Target types and their own fields, as benchmark-service's target-rules.ts checks them (it is an app the gateway cannot import). */
const TARGET_FIELDS: Record<string, Record<string, unknown>> = {
  dataset: {},
  http: {
    url: { type: 'string', format: 'uri' },
    headers: { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, ref('SecretReference')] } },
    timeoutMs: { type: 'integer', minimum: 1000, maximum: 600_000 },
    apiKey: ref('SecretReference'),
  },
  openai_chat: { baseUrl: { type: 'string', format: 'uri' }, model: { type: 'string', minLength: 1, maxLength: 200 }, apiKey: ref('SecretReference') },
};
const TARGET_REQUIRED: Record<string, string[]> = { dataset: [], http: ['url'], openai_chat: ['baseUrl', 'model'] };
const TARGET_COMMON = {
  promptId: { type: 'string', pattern: '^prm_[0-9a-z]{26}$' },
  promptVersion: { type: 'integer', minimum: 1 },
  promptRelease: { type: 'string', pattern: '^[a-z0-9_.-]{1,50}$', description: 'A release of the prompt (instead of promptVersion), resolved to its version when a run starts' },
};

/** A scorer config key's schema: the video scorers' are described, a credential is a secret reference, the rest any value benchmark-service checks. */
function configKeySchema(type: string, key: string): object {
  const video = (VIDEO_CONFIG_SCHEMAS as Record<string, Record<string, object> | undefined>)[type]?.[key];
  if (video) return video;
  return key === 'apiKey' ? ref('SecretReference') : {};
}

/**
 * Scorers and targets, which benchmark-service checks by their type: one schema per type,
 * the scorer config keys from validate-scorers' own table (SCORER_CONFIG_KEYS).
 */
export function describeBenchmarkParts(doc: OpenAPIObject): void {
  const schemas = doc.components!.schemas!;
  schemas.SecretReference = {
    type: 'object',
    additionalProperties: false,
    required: ['secret'],
    properties: { secret: { type: 'string', description: "The name of one of the organization's secrets" } },
  } as never;
  schemas.Scorer = {
    oneOf: SCORER_TYPES.map((type) => ({
      type: 'object',
      title: type,
      additionalProperties: false,
      required: ['type'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: SCORER_NAME_MAX, description: 'Unique within the benchmark; default the type' },
        type: { const: type },
        config: {
          type: 'object',
          additionalProperties: false,
          required: SCORER_CONFIG_KEYS[type].required,
          properties: Object.fromEntries(SCORER_CONFIG_KEYS[type].keys.map((key) => [key, configKeySchema(type, key)])),
        },
      },
    })),
  } as never;
  schemas.Target = {
    oneOf: Object.entries(TARGET_FIELDS).map(([type, fields]) => ({
      type: 'object',
      title: type,
      additionalProperties: false,
      required: ['type', ...TARGET_REQUIRED[type]],
      properties: { type: { const: type }, ...TARGET_COMMON, ...fields },
    })),
  } as never;
  const input = schemas.CreateBenchmarkInput as { properties: Record<string, unknown> };
  input.properties.scorers = { type: 'array', minItems: 1, maxItems: MAX_SCORERS, items: ref('Scorer') };
  input.properties.target = { ...ref('Target'), example: { type: 'dataset' } };
  // What a benchmark shows: the scorers normalised (name and config always present), the target as stored.
  const view = schemas.BenchmarkView as { properties: Record<string, unknown> };
  view.properties.scorers = {
    type: 'array',
    items: {
      type: 'object',
      required: ['name', 'type', 'config'],
      properties: { name: { type: 'string' }, type: { enum: [...SCORER_TYPES] }, config: { type: 'object', additionalProperties: true } },
    },
  };
  view.properties.target = { type: 'object', required: ['type'], properties: { type: { enum: Object.keys(TARGET_FIELDS) } } };
}
