import { DomainError } from '@cinetrace/contracts';

export const MAX_BATCH_TRACES = 1000;

/** The batch envelope `{ traces: [ … ] }`; only a body that is not that at all is a 400. */
export function checkBatchBody(body: unknown): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw DomainError.validation([{ path: 'traces', message: 'the body must be an object { traces: [ … ] }' }]);
  }
  const { traces, ...others } = body as { traces?: unknown };
  const errors = Object.keys(others).map((path) => ({ path, message: 'is not a field of a batch (only traces)' }));
  if (!Array.isArray(traces)) errors.unshift({ path: 'traces', message: 'must be an array of traces' });
  else if (traces.length > MAX_BATCH_TRACES) errors.unshift({ path: 'traces', message: `must hold at most ${MAX_BATCH_TRACES} traces` });
  if (errors.length) throw DomainError.validation(errors, 'The batch is not valid');
  return traces as unknown[];
}
