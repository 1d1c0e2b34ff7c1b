import { ErrorCode } from '@cinetrace/contracts';
import { STATUS_FOR_CODE, titleForStatus } from '@cinetrace/http-problem';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import { operationsOf } from './document-walk';
import { headerRef } from './response-headers';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The codes the problem filter answers with each status (libs/http-problem, STATUS_FOR_CODE). */
function codesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(STATUS_FOR_CODE) as Array<[ErrorCode, number]>) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

/**
 * The problem details every error answer carries (RFC 9457, as ProblemDetails in
 * libs/http-problem builds them), one shared response per status naming its codes, and
 * the error statuses each operation can answer. The OTLP routes answer google.rpc.Status
 * instead (ingest/otlp.openapi.ts) and are left alone here.
 */
export function describeProblems(doc: OpenAPIObject, skipPaths: string[]): void {
  const byStatus = codesByStatus();
  const schemas = (doc.components!.schemas = doc.components!.schemas ?? {});
  schemas.FieldError = {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'message'],
    properties: {
      path: { type: 'string', description: 'The offending field, as `spans[2].startTime` (a header or query parameter by its name)', example: 'spans[2].startTime' },
      message: { type: 'string', example: 'must be an ISO-8601 time' },
    },
  };
  schemas.Problem = {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
    description: 'RFC 9457 problem details, with the stable `code` clients match on',
    properties: {
      type: { type: 'string', enum: ['about:blank'] },
      title: { type: 'string', description: "The status's reason phrase", example: 'Not Found' },
      status: { type: 'integer', enum: [...byStatus.keys()].sort() },
      code: { type: 'string', enum: Object.values(ErrorCode) },
      detail: { type: 'string', example: "No prompt with identifier 'intro-shot' in this project" },
      requestId: { type: 'string', description: 'The X-Request-Id of the request' },
      errors: { type: 'array', minItems: 1, items: ref('FieldError'), description: 'On validation failures: every offending field' },
    },
  } as never;
  // One shared response per status some operation answers; the others (405, 408, 414, 431) come before any route is matched.
  const responses = (doc.components!.responses = doc.components!.responses ?? {});
  for (const { path, method, operation } of operationsOf(doc)) {
    if (skipPaths.includes(path)) continue;
    for (const status of errorStatuses(path, method, operation)) {
      responses[problemName(status)] ??= problemResponse(status, byStatus.get(status) ?? []);
      operation.responses[String(status)] = { $ref: `#/components/responses/${problemName(status)}` };
    }
  }
}

export const problemName = (status: number) => `Problem${status}`;

function problemResponse(status: number, codes: ErrorCode[]): ResponseObject {
  const headers: ResponseObject['headers'] = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
  if (status === 416) headers['Content-Range'] = headerRef('Content-Range');
  return {
    description: `${titleForStatus(status)}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
    headers,
    content: {
      [PROBLEM_MEDIA_TYPE]: {
        schema: { allOf: [ref('Problem'), { type: 'object', properties: { status: { const: status }, code: { enum: codes } } }] } as never,
        example: { type: 'about:blank', title: titleForStatus(status), status, code: codes[0], detail: exampleDetail(codes[0]), requestId: 'req_01jh8z6v9q3m2r7x5c4b1n0k8d' },
      },
    },
  };
}

const exampleDetail = (code: ErrorCode) => (code === ErrorCode.ValidationFailed ? 'The request is not valid' : `An example of ${code}`);

/** Conflicts (409) beyond Idempotency-Key races on POST: what the services refuse while something else holds the resource. */
const CONFLICT_ON = [
  'revokeApiKey',
  'rotateSecret',
  'deleteSecret',
  'deleteDataset',
  'updatePrompt',
  'deletePrompt',
  'deleteBenchmark',
  // gate_failed, and the most releases a prompt may have.
  'movePromptRelease',
  'removePromptRelease',
  // media_not_ready: frames and storyboards need a probed video or image.
  'getMediaFrame',
  'getMediaStoryboard',
];
/** If-Match: a stale version is 412. */
const PRECONDITION_ON = ['updatePrompt', 'deletePrompt'];
/** A Range past the end of the bytes (416). */
const RANGE_ON = ['getMediaContent'];
/** Quotas (429 quota_exceeded), and a project's media uploads in flight (429 rate_limited, MEDIA_PROJECT_UPLOADS). */
const QUOTA_ON = ['startBenchmarkRun', 'createMedia'];

function errorStatuses(path: string, method: string, operation: OperationObject): number[] {
  const id = operation.operationId ?? '';
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  // Any route refuses a query parameter it does not define (400); a ready check can fail (503).
  if (isPublic) return id === 'getReadiness' ? [400, 503] : [400];
  const statuses = [400, 401, 403, 500, 503];
  if (path.includes('{')) statuses.push(404);
  if (method === 'post' || method === 'put') statuses.push(413, 415);
  if (method === 'post') statuses.push(409, 422);
  if (CONFLICT_ON.includes(id)) statuses.push(409);
  if (PRECONDITION_ON.includes(id)) statuses.push(412);
  if (QUOTA_ON.includes(id)) statuses.push(429);
  if (RANGE_ON.includes(id)) statuses.push(416);
  return [...new Set(statuses)].sort();
}
