import { traceSchema } from '@cinetrace/traces';
import type { OpenAPIObject } from '@nestjs/swagger';
import { MAX_BATCH_TRACES } from './trace-batch';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Trace ingest bodies: the JSON Schema validateTrace checks them with (libs/traces, trace.schema.ts), so the two cannot differ. */
export function describeTraceBodies(doc: OpenAPIObject): void {
  const schemas = doc.components!.schemas!;
  schemas.TraceInput = structuredClone(traceSchema) as never;
  schemas.TraceBatchInput = {
    type: 'object',
    required: ['traces'],
    additionalProperties: false,
    properties: { traces: { type: 'array', maxItems: MAX_BATCH_TRACES, items: ref('TraceInput'), description: 'Each item is checked on its own' } },
  } as never;
  setJsonBody(doc, '/api/v1/traces', 'TraceInput');
  setJsonBody(doc, '/api/v1/traces/batch', 'TraceBatchInput');
  for (const name of ['BatchItemResult', 'TraceAcceptedView']) {
    const errors = (schemas[name] as { properties?: { errors?: Record<string, unknown> } } | undefined)?.properties?.errors;
    if (errors) errors.items = ref('FieldError');
  }
}

function setJsonBody(doc: OpenAPIObject, path: string, schema: string): void {
  const operation = doc.paths[path]?.post;
  if (operation) operation.requestBody = { required: true, content: { 'application/json': { schema: ref(schema) } } };
}
