import type { OpenAPIObject, ParameterObject } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_MARK } from '../idempotency/idempotency-key-mark';
import { operationsOf } from './document-walk';

const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Replays the first answer for the same key and body within 24 h (Idempotent-Replayed: true); another body under the same key is 422 idempotency_key_reused',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};

/**
 * Idempotency-Key on every POST that takes it (idempotency.interceptor.ts): all but those
 * marked (idempotency-key-mark.ts); and the If-Match form parseIfMatch accepts.
 */
export function describeRequestHeaders(doc: OpenAPIObject): void {
  for (const { method, operation } of operationsOf(doc)) {
    const marks = operation as unknown as Record<string, unknown>;
    const takesKey = marks[IDEMPOTENCY_KEY_MARK] === undefined;
    delete marks[IDEMPOTENCY_KEY_MARK];
    const parameters = (operation.parameters ?? []) as ParameterObject[];
    if (method === 'post' && takesKey) parameters.push(IDEMPOTENCY_KEY);
    for (const parameter of parameters) {
      if (parameter.in === 'header' && parameter.name === 'If-Match') {
        parameter.description = parameter.description ?? 'The version the change applies to, as `"<version>"`; a stale one is 412 precondition_failed';
        parameter.schema = { type: 'string' };
      }
      if (parameter.in === 'header' && parameter.name === 'Prefer') parameter.schema = { type: 'string', examples: ['wait'] } as never;
    }
    operation.parameters = parameters;
  }
}
