import type { ModelPriceView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const entries = [
  { match: 'gpt-4o', unit: 'input_token', usd: 0.000002 },
  { match: 'gpt-4o', unit: 'output_token', usd: 0.000008 },
  { match: { regex: '^my-video-model' }, unit: 'video_second', usd: 0.25 },
  { match: { regex: '^my-video-model' }, unit: 'video_second', usd: 0.6, resolution: '4k' },
] as const;

const project: ModelPriceView[] = entries.map((entry) => ({
  ...entry,
  resolution: 'resolution' in entry ? entry.resolution : null,
  source: 'project' as const,
  asOf: EXAMPLE.createdAt,
}));

const DEFAULTS_AS_OF = '2026-12-07T00:00:00.000Z';
const withDefaults: ModelPriceView[] = [
  ...project,
  { match: 'gpt-4o', unit: 'input_token', usd: 0.0000025, resolution: null, source: 'default', asOf: DEFAULTS_AS_OF },
  { match: 'sora-2-pro', unit: 'video_second', usd: 0.5, resolution: '1024x1792', source: 'default', asOf: DEFAULTS_AS_OF },
];

export const MODEL_PRICE_EXAMPLES: ExampleTable = {
  listModelPrices: { response: listPage(withDefaults) },
  replaceModelPrices: { request: { entries }, response: listPage(project) },
};
