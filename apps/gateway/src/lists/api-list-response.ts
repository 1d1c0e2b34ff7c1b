import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents a list route's 200 answer in OpenAPI: the list envelope `{ data: [item], nextCursor }`. */
export const ApiListResponse = (item: Type<unknown>) =>
  applyDecorators(
    ApiExtraModels(item),
    ApiResponse({
      status: 200,
      schema: {
        type: 'object',
        required: ['data', 'nextCursor'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(item) } },
          nextCursor: { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last' },
        },
      },
    }),
  );
