import type { OpenAPIObject } from '@nestjs/swagger';
import { forEachSchema } from './document-walk';

/**
 * `nullable` is OpenAPI 3.0; 3.1 says it with JSON Schema: `type: [X, "null"]`, or for a
 * reference (which @nestjs/swagger wraps in allOf) `oneOf: [{ $ref }, { type: "null" }]`.
 */
export function nullableToTypeArrays(doc: OpenAPIObject): void {
  forEachSchema(doc, (schema) => {
    if (!('nullable' in schema)) return;
    const nullable = schema.nullable === true;
    delete schema.nullable;
    if (!nullable) return;
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
      schema.oneOf = [(schema.allOf as unknown[])[0], { type: 'null' }];
      delete schema.allOf;
      delete schema.type;
    } else if (schema.$ref) {
      schema.oneOf = [{ $ref: schema.$ref }, { type: 'null' }];
      delete schema.$ref;
    } else if (typeof schema.type === 'string') {
      schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
    } else if (Array.isArray(schema.type) && !schema.type.includes('null')) {
      schema.type = [...(schema.type as unknown[]), 'null'];
    }
  });
}
