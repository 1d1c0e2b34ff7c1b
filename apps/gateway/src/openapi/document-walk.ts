import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';

export type Schema = Record<string, unknown>;
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Calls `visit` on every schema object of the document, children before parents. */
export function forEachSchema(node: unknown, visit: (schema: Schema) => void, isMap = false): void {
  if (Array.isArray(node)) return node.forEach((child) => forEachSchema(child, visit));
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    // Examples are values, not schemas; the values of `properties` (not the map itself) are schemas.
    if (key === 'example' || key === 'examples' || key === 'default') continue;
    forEachSchema(value, visit, key === 'properties' || key === 'schemas');
  }
  if (!isMap && looksLikeSchema(node as Schema)) visit(node as Schema);
}

const SCHEMA_KEYS = ['type', '$ref', 'allOf', 'oneOf', 'anyOf', 'properties', 'items', 'enum', 'nullable', 'x-any-json'];
const looksLikeSchema = (node: Schema) => SCHEMA_KEYS.some((key) => Object.hasOwn(node, key));

export interface OperationAt {
  path: string;
  method: (typeof HTTP_METHODS)[number];
  operation: OperationObject;
}

export function operationsOf(doc: OpenAPIObject): OperationAt[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => (item as Record<string, unknown>)[method]).map((method) => ({
      path,
      method,
      operation: (item as Record<string, OperationObject>)[method],
    })),
  );
}
