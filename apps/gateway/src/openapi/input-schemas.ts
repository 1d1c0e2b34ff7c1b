import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The validation pipe refuses fields an input does not declare (forbidNonWhitelisted), so
 * every input schema (`…Input`) says `additionalProperties: false`.
 */
export function closeInputSchemas(doc: OpenAPIObject): void {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (name.endsWith('Input') && 'properties' in schema) (schema as Record<string, unknown>).additionalProperties = false;
  }
}
