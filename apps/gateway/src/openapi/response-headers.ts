import type { HeaderObject, OpenAPIObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { operationsOf } from './document-walk';

const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': { description: "The request's id: the client's X-Request-Id if it sent one, else a new one", required: true, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 0 } },
  Location: { description: 'Where the created (or accepted) resource is read', required: true, schema: { type: 'string' } },
  ETag: {
    description: 'The prompt and its version as an entity tag, `"<prompt id>:<version>"`; send it back as If-Match (a change) or If-None-Match (a conditional GET)',
    required: true,
    schema: { type: 'string', pattern: '^"[a-z]+_[0-9a-z]+:[1-9][0-9]*"$' },
  },
  'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
  'Accept-Ranges': { description: '`bytes`: a Range of bytes may be asked for', required: true, schema: { type: 'string', enum: ['bytes'] } },
  'Content-Length': { description: 'Bytes in this answer', required: true, schema: { type: 'integer', minimum: 0 } },
  'Content-Range': {
    description: 'The bytes this answer holds and the whole size (`bytes 0-1/48211`); on a 416, the size alone (`bytes */48211`)',
    required: true,
    schema: { type: 'string', pattern: '^bytes (\\d+-\\d+|\\*)/\\d+$' },
  },
  'Preference-Applied': {
    description: '`wait` when the answer waited as `Prefer: wait` asked: for the traces to be stored, or for the media to leave `pending`',
    schema: { type: 'string', enum: ['wait'] },
  },
};

export const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

/** Answers that carry Location: the operation and its success status. */
const LOCATION_ON: Record<string, string[]> = {
  createProject: ['201'],
  createApiKey: ['201'],
  createSecret: ['201'],
  createPrompt: ['201'],
  ingestTrace: ['201', '202'],
  createDataset: ['201'],
  createBenchmark: ['201'],
  createMedia: ['201'],
  startBenchmarkRun: ['202'],
};
const ETAG_ON = ['createPrompt', 'getPrompt', 'getPromptByIdentifier', 'updatePrompt'];
const PREFERENCE_APPLIED_ON: Record<string, string[]> = { ingestTrace: ['201'], ingestTraceBatch: ['207'], getMedia: ['200'] };
/** OTLP exports ignore Idempotency-Key (idempotency.interceptor.ts). */
const NO_IDEMPOTENCY = ['exportOtlpTraces', 'exportOtlpTracesUnderApi', 'createApiKey', 'createOrganization'];

/** The response headers the gateway sends (request-id.ts, the controllers, idempotency.interceptor.ts), on the answers that carry them. */
export function describeResponseHeaders(doc: OpenAPIObject): void {
  doc.components!.headers = { ...doc.components!.headers, ...HEADERS };
  for (const { method, operation } of operationsOf(doc)) {
    const id = operation.operationId ?? '';
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response || '$ref' in response) continue;
      const headers: Record<string, ReferenceObject> = { 'X-Request-Id': headerRef('X-Request-Id') };
      if (LOCATION_ON[id]?.includes(status)) headers.Location = headerRef('Location');
      // A replayed create (Idempotency-Key) carries the stored ETag too (idempotency.store.ts): required on every one.
      // A 304 names the version the client holds, as RFC 9110 §15.4.5 asks.
      if (ETAG_ON.includes(id) && (status.startsWith('2') || status === '304')) headers.ETag = headerRef('ETag');
      if (PREFERENCE_APPLIED_ON[id]?.includes(status)) headers['Preference-Applied'] = headerRef('Preference-Applied');
      if (method === 'post' && status.startsWith('2') && !NO_IDEMPOTENCY.includes(id)) headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
      (response as ResponseObject).headers = { ...headers, ...(response as ResponseObject).headers };
    }
  }
}
