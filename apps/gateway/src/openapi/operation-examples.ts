import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from './document-walk';

/** An operation's examples: the body it takes (when it takes one) and the body of its success answers. */
export interface OperationExample {
  request?: unknown;
  response: unknown;
}

/** Examples by operationId: one table per resource, kept beside its controller (`*.examples.ts`). */
export type ExampleTable = Record<string, OperationExample>;

/** A list answer's envelope, as ApiListResponse describes it. */
export const listPage = <T>(data: T[], nextCursor: string | null = null) => ({ data, nextCursor });

/** Media types whose bodies are bytes (protobuf, stored media): an example of them would say nothing a JSON one does not. */
const isBinary = (type: string) => type === 'application/x-protobuf' || /^(video|image|audio)\//.test(type);

/**
 * Sets each operation's examples on its request body and on every success answer with a
 * body. A table naming an operation the document lacks is a mistake: it throws, so a
 * renamed operation cannot leave its examples behind. The openapi e2e suite checks that
 * every operation has examples and that each is valid against its own schema.
 */
export function describeExamples(doc: OpenAPIObject, tables: ExampleTable[]): void {
  const examples = Object.assign({}, ...tables) as ExampleTable;
  const operations = new Map(operationsOf(doc).map(({ operation }) => [operation.operationId ?? '', operation]));
  for (const [id, example] of Object.entries(examples)) {
    const operation = operations.get(id);
    if (!operation) throw new Error(`Examples for an unknown operation: ${id}`);
    const body = operation.requestBody;
    if (example.request !== undefined && body && !('$ref' in body)) {
      for (const [type, media] of Object.entries(body.content)) if (!isBinary(type)) media.example = example.request;
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2') || !response || '$ref' in response) continue;
      for (const [type, media] of Object.entries(response.content ?? {})) if (!isBinary(type)) media.example = example.response;
    }
  }
}
