import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import { SCOPE_MARK } from '../auth/access.decorators';
import { IDEMPOTENCY_KEY_MARK, type IdempotencyKeyMark } from '../idempotency/idempotency-key-mark';
import { OTLP_TRACE_ROUTES } from './otlp-routes';
import { headerRef } from '../openapi/response-headers';

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The OTLP paths: their answers follow the OTLP specification, not the API's problem details. */
export const OTLP_PATHS: readonly string[] = OTLP_TRACE_ROUTES;

/** Error statuses of an OTLP export, each a google.rpc.Status in the request's encoding (GatewayExceptionFilter). */
const OTLP_ERRORS: Record<number, string> = {
  400: 'The body could not be decoded, or a query parameter was sent',
  401: 'No or an unknown API key or project key',
  403: 'The key lacks the ingest scope',
  413: 'The body is larger than the limit',
  415: 'Neither application/x-protobuf nor application/json',
  429: 'Backpressure, or the project holds its share of the decoding threads or has OTLP_PROJECT_EXPORTS exports in flight: retry after Retry-After',
  500: 'Internal error',
  503: 'The trace stream is unavailable: retry after Retry-After',
};

/** What each OTLP route's operation says of itself (the routes are Fastify's, so no controller describes them). */
const OTLP_OPERATIONS: Record<(typeof OTLP_TRACE_ROUTES)[number], { operationId: string; summary: string; description?: string }> = {
  '/v1/traces': {
    operationId: 'exportOtlpTraces',
    summary: 'OTLP/HTTP trace export (ExportTraceServiceRequest); spans merge into traces by their OTel trace id',
    description:
      "Protobuf or OTLP/JSON, optionally `Content-Encoding: gzip`. Answers an ExportTraceServiceResponse in the request's encoding " +
      '(`partialSuccess` when spans were rejected); errors are a google.rpc.Status. See the API reference, "OTLP ingest".',
  },
  '/api/v1/otel/v1/traces': {
    operationId: 'exportOtlpTracesUnderApi',
    summary: 'OTLP/HTTP trace export under the API prefix (the same as POST /v1/traces)',
  },
};

/**
 * An OTLP route's operation as the rest of the document's refinement expects it, its keys in
 * the order @nestjs/swagger gave them: the refinement fills `requestBody` and `responses` in
 * place, so the served document is what it was when a controller served these routes, down
 * to its bytes.
 */
function otlpOperation(path: (typeof OTLP_TRACE_ROUTES)[number]): OperationObject {
  const { operationId, summary, description } = OTLP_OPERATIONS[path];
  const operation: OperationObject = {
    ...(description === undefined ? {} : { description }),
    operationId,
    parameters: [],
    requestBody: undefined,
    responses: {},
    summary,
    tags: ['OpenTelemetry'],
  };
  // The scope the auth guard's rule asks (ingestCaller), read by describeSecurity as on a controller's route.
  (operation as unknown as Record<string, unknown>)[SCOPE_MARK] = 'ingest';
  // Exports are idempotent by their span ids: Idempotency-Key is ignored, so not offered.
  (operation as unknown as Record<string, unknown>)[IDEMPOTENCY_KEY_MARK] = 'ignored' satisfies IdempotencyKeyMark;
  return operation;
}

/** The JSON API's trace routes, which the OTLP routes follow in the document. */
const JSON_TRACE_ROUTES = '/api/v1/traces';

/**
 * Adds the OTLP routes' operations, first: security, problem responses and
 * describeOtlpOperations then treat them as any other. They go right after the JSON trace
 * routes, where the controller that served them put them, so that the document, and the
 * client generated from it (libs/api-client), keep their order.
 */
export function describeOtlpRoutes(doc: OpenAPIObject): void {
  const otlp: OpenAPIObject['paths'] = {};
  for (const path of OTLP_TRACE_ROUTES) otlp[path] = { post: otlpOperation(path) };
  const paths = Object.entries(doc.paths);
  const after = paths.findLastIndex(([path]) => path.startsWith(JSON_TRACE_ROUTES));
  doc.paths = Object.fromEntries([...paths.slice(0, after + 1), ...Object.entries(otlp), ...paths.slice(after + 1)]);
}

/** OTLP/HTTP trace export as it behaves (otlp-http.routes.ts, otlp-exception.filter.ts): bodies and answers in protobuf or OTLP/JSON. */
export function describeOtlpOperations(doc: OpenAPIObject): void {
  const schemas = doc.components!.schemas!;
  schemas.ExportTraceServiceRequest = {
    type: 'object',
    description: 'OTLP/JSON ExportTraceServiceRequest (opentelemetry-proto)',
    properties: { resourceSpans: { type: 'array', items: {} } },
  } as never;
  schemas.ExportTraceServiceResponse = {
    type: 'object',
    additionalProperties: false,
    properties: {
      partialSuccess: {
        type: 'object',
        properties: { rejectedSpans: { type: 'string', pattern: '^[0-9]+$', description: 'An int64, as OTLP/JSON writes it' }, errorMessage: { type: 'string' } },
      },
    },
  } as never;
  schemas.GoogleRpcStatus = {
    type: 'object',
    required: ['code', 'message'],
    description: 'google.rpc.Status: the gRPC code for the HTTP status, and a message',
    properties: { code: { type: 'integer' }, message: { type: 'string' }, details: { type: 'array', items: {} } },
  } as never;
  const binary = { schema: { type: 'string', contentMediaType: PROTOBUF } as never };
  for (const path of OTLP_PATHS) {
    const operation = doc.paths[path]?.post;
    if (!operation) continue;
    operation.requestBody = {
      required: true,
      description: 'An ExportTraceServiceRequest, protobuf or OTLP/JSON, optionally with Content-Encoding: gzip',
      content: { [PROTOBUF]: binary, [JSON_TYPE]: { schema: ref('ExportTraceServiceRequest') } },
    };
    const ok: ResponseObject = {
      description: "ExportTraceServiceResponse in the request's encoding; `partialSuccess` when spans were rejected",
      headers: { 'X-Request-Id': headerRef('X-Request-Id') },
      content: { [JSON_TYPE]: { schema: ref('ExportTraceServiceResponse'), example: {} }, [PROTOBUF]: binary },
    };
    operation.responses = { '200': ok };
    for (const [status, description] of Object.entries(OTLP_ERRORS)) {
      const headers: ResponseObject['headers'] = { 'X-Request-Id': headerRef('X-Request-Id') };
      if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
      operation.responses[status] = {
        description,
        headers,
        content: { [JSON_TYPE]: { schema: ref('GoogleRpcStatus'), example: { code: 3, message: description } }, [PROTOBUF]: binary },
      };
    }
  }
}
