import type { OpenAPIObject } from '@nestjs/swagger';

export const OPENAPI_JSON_PATH = '/api/v1/openapi.json';

/** The document's own route (served by SwaggerModule, so no controller describes it). */
export function describeDocumentRoute(doc: OpenAPIObject): void {
  doc.paths[OPENAPI_JSON_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['Operations'],
      security: [],
      responses: {
        '200': {
          description: 'The document',
          content: {
            'application/json': {
              schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } } },
            },
          },
        },
      },
    },
  };
}
