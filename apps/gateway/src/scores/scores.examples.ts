import type { ScoreBatchView, ScoreConfigView, ScoreView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const CONFIG_ID = 'scfg_01jh8z6v9q3m2r7x5c4b1n0k8d';

const request = { id: 'sc_intro_quality', traceId: EXAMPLE.traceId, name: 'quality', value: 0.82, comment: 'sharp, slight flicker at 0:03' };

/** A score as answered; the trace examples show it on their trace. */
export const SCORE_EXAMPLE = {
  id: request.id,
  traceId: EXAMPLE.traceId,
  spanId: null,
  name: 'quality',
  value: 0.82,
  stringValue: null,
  dataType: 'numeric',
  source: 'api',
  comment: request.comment,
  configId: CONFIG_ID,
  evaluatorId: null,
  author: EXAMPLE.apiKeyId,
  createdAt: EXAMPLE.createdAt,
} satisfies ScoreView;

const verdict = {
  ...SCORE_EXAMPLE,
  id: 'sc_intro_verdict',
  spanId: 'sp_1',
  name: 'verdict',
  value: 1,
  stringValue: 'good',
  dataType: 'categorical',
  source: 'annotation',
  comment: null,
  configId: null,
  author: 'ana@example.com',
} satisfies ScoreView;

const config = {
  id: CONFIG_ID,
  name: 'quality',
  dataType: 'numeric',
  min: 0,
  max: 1,
  categories: null,
  description: 'Overall quality of the clip, 0 (unusable) to 1 (ship it)',
  archived: false,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} satisfies ScoreConfigView;

const batch = {
  accepted: 2,
  rejected: 0,
  items: [
    { index: 0, id: SCORE_EXAMPLE.id, result: 'accepted' },
    { index: 1, id: verdict.id, result: 'accepted' },
  ],
} satisfies ScoreBatchView;

export const SCORE_EXAMPLES: ExampleTable = {
  createScore: { request, response: SCORE_EXAMPLE },
  createScoreBatch: {
    request: { scores: [request, { id: verdict.id, traceId: EXAMPLE.traceId, spanId: 'sp_1', name: 'verdict', value: 'good', source: 'annotation', author: verdict.author }] },
    response: batch,
  },
  listScores: { response: listPage([verdict, SCORE_EXAMPLE]) },
  createScoreConfig: {
    request: { name: config.name, dataType: config.dataType, min: config.min, max: config.max, description: config.description },
    response: config,
  },
  listScoreConfigs: { response: listPage([config]) },
  updateScoreConfig: { request: { archived: true }, response: { ...config, archived: true, updatedAt: EXAMPLE.updatedAt } },
};
