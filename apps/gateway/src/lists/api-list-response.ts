import { PAGE_LIMIT } from '@cinetrace/contracts';
import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiQuery, ApiResponse, getSchemaPath, type SchemaObject } from '@nestjs/swagger';
import type { FilterSpec, FilterType } from './list-query';

/** How each filter type travels in the query string (parseListQuery's fromQueryString). */
const IN_QUERY: Record<Exclude<FilterType, 'object'>, SchemaObject> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  'string-list': { type: 'array', items: { type: 'string' }, description: 'A comma list; every one must be present' },
  time: { type: 'string', description: 'An ISO-8601 time with a zone, or integer epoch milliseconds' },
};

/** How each filter type travels inside `args` (parseListQuery's fromJson). */
const IN_ARGS: Record<FilterType, SchemaObject> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  'string-list': { type: 'array', items: { type: 'string' } },
  object: { type: 'object', additionalProperties: {}, description: 'Exact match on each key' },
  time: { type: ['string', 'number'] as unknown as SchemaObject['type'], description: 'An ISO-8601 time with a zone, or epoch milliseconds (a fraction keeps microseconds)' },
};

/**
 * Documents a list route from the same filter spec its handler parses with: `limit`,
 * `cursor`, each filter, `args` (a JSON object of the same filters), and the 200 answer,
 * the list envelope `{ data: [item], nextCursor }` plus any extra fields (`summary`).
 */
export const ApiListResponse = (item: Type<unknown>, filters: FilterSpec = {}, extra: Record<string, Type<unknown>> = {}) => {
  const names = Object.keys(filters);
  const argsSchema: SchemaObject = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(names.map((name) => [name, IN_ARGS[filters[name]]])),
  };
  const extraRequired = Object.keys(extra);
  return applyDecorators(
    ApiExtraModels(item, ...Object.values(extra)),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default } }),
    ApiQuery({ name: 'cursor', required: false, description: 'The `nextCursor` of the previous page', schema: { type: 'string', minLength: 1 } }),
    ...names
      .filter((name) => filters[name] !== 'object')
      .map((name) => {
        const type = filters[name] as Exclude<FilterType, 'object'>;
        const { description, ...schema } = IN_QUERY[type];
        return ApiQuery({ name, required: false, schema, description, ...(type === 'string-list' ? { style: 'form', explode: false } : {}) });
      }),
    ApiQuery({
      name: 'args',
      required: false,
      description: `A JSON object of this list's filters (${names.join(', ') || 'none'}), merged under the explicit parameters`,
      content: { 'application/json': { schema: argsSchema } },
    } as Parameters<typeof ApiQuery>[0]),
    ApiResponse({
      status: 200,
      description: 'A page of the list',
      schema: {
        type: 'object',
        required: ['data', 'nextCursor', ...extraRequired],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(item) } },
          nextCursor: { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last' },
          ...Object.fromEntries(extraRequired.map((name) => [name, { nullable: true, allOf: [{ $ref: getSchemaPath(extra[name]) }] }])),
        },
      },
    }),
  );
};
