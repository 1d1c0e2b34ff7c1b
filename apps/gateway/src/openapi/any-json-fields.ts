import { ANY_JSON_MARK } from '@cinetrace/contracts';
import type { OpenAPIObject } from '@nestjs/swagger';
import { forEachSchema } from './document-walk';

/** Fields marked with ApiAnyJson hold any JSON value, null included: the empty schema `{}` (with its description). */
export function anyJsonFields(doc: OpenAPIObject): void {
  forEachSchema(doc.components, (schema) => {
    if (!schema[ANY_JSON_MARK]) return;
    const { description, example } = schema;
    for (const key of Object.keys(schema)) delete schema[key];
    if (description) schema.description = description;
    if (example !== undefined) schema.example = example;
  });
}
