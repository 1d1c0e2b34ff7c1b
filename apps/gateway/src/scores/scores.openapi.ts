import { SCORE_DATA_TYPES, SCORE_LIMITS, SCORE_SOURCES } from '@cinetrace/contracts';
import { CLIENT_ID_PATTERN } from '@cinetrace/traces';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The bodies of the score routes (scores.controller.ts, score-configs.controller.ts), from the
 * rules trace-ingest checks them by (a value that is a number, a boolean or a label is a union
 * @nestjs/swagger cannot say).
 */
export function describeScoreBodies(doc: OpenAPIObject): void {
  const schemas = doc.components!.schemas!;
  const clientId = (description: string) => ({ type: 'string', pattern: CLIENT_ID_PATTERN, description });
  const score = {
    type: 'object',
    additionalProperties: false,
    required: ['traceId', 'name'],
    description: 'One score. `value` is required but for a categorical score given by `stringValue`',
    properties: {
      id: clientId('Chosen by the client to make the score idempotent (sent again with the same body: 200, the same score; another body: 409)'),
      traceId: clientId('The trace judged; it need not be stored yet'),
      spanId: { ...clientId('The span judged; absent or null for the whole trace'), type: ['string', 'null'] },
      name: { type: 'string', minLength: 1, maxLength: SCORE_LIMITS.nameLength },
      value: {
        oneOf: [
          { type: 'number', description: 'A numeric score (or a categorical one by its number, with a config)' },
          { type: 'boolean', description: 'A boolean score, stored as 1 or 0' },
          { type: 'string', minLength: 1, maxLength: SCORE_LIMITS.categoryLabel, description: 'A category label' },
        ],
        description: 'Checked against the config (configId, or a live config of this name): numeric within min..max, a boolean, a declared category',
      },
      stringValue: { type: 'string', minLength: 1, maxLength: SCORE_LIMITS.categoryLabel, description: 'A categorical score’s label' },
      dataType: { type: 'string', enum: [...SCORE_DATA_TYPES], description: 'Read from the value (or the config) when absent' },
      source: { type: 'string', enum: [...SCORE_SOURCES], default: 'api' },
      comment: { type: ['string', 'null'], maxLength: SCORE_LIMITS.comment },
      configId: { type: 'string', minLength: 1, maxLength: 40, description: 'The score config to check the value against; its name must be the score’s' },
      evaluatorId: { ...clientId('The online evaluator that wrote it (source `evaluator`)'), type: ['string', 'null'] },
      author: { type: 'string', minLength: 1, maxLength: SCORE_LIMITS.author, description: 'Who wrote it; the API key that sent it when absent' },
    },
  };
  schemas.ScoreInput = score as never;
  schemas.ScoreBatchInput = {
    type: 'object',
    additionalProperties: false,
    required: ['scores'],
    properties: { scores: { type: 'array', maxItems: SCORE_LIMITS.batch, items: { $ref: '#/components/schemas/ScoreInput' } } },
  } as never;
  schemas.ScoreConfigInput = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'dataType'],
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: SCORE_LIMITS.nameLength,
        description: 'Unique in the project; scores of this name are checked against the config while it is not archived',
      },
      dataType: { type: 'string', enum: [...SCORE_DATA_TYPES] },
      min: { type: ['number', 'null'], description: 'Numeric only: the least value allowed (inclusive)' },
      max: { type: ['number', 'null'], description: 'Numeric only: the greatest value allowed (inclusive)' },
      categories: {
        type: ['array', 'null'],
        minItems: 1,
        maxItems: SCORE_LIMITS.categories,
        description: 'Categorical only (and required): labels and numbers, each unique',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['label', 'value'],
          properties: { label: { type: 'string', minLength: 1, maxLength: SCORE_LIMITS.categoryLabel }, value: { type: 'number' } },
        },
      },
      description: { type: ['string', 'null'], maxLength: SCORE_LIMITS.description },
    },
  } as never;
  schemas.ScoreConfigChangeInput = {
    type: 'object',
    additionalProperties: false,
    description: "Only these change: a config's name, type and range are fixed",
    properties: {
      description: { type: ['string', 'null'], maxLength: SCORE_LIMITS.description },
      archived: { type: 'boolean' },
    },
  } as never;
}
