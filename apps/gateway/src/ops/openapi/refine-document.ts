import type { OpenAPIObject } from '@nestjs/swagger';
import { anyJsonFields } from './any-json-fields';
import { describeBenchmarkParts } from './benchmark-schemas';
import { describeDocumentRoute } from './document-route';
import { closeInputSchemas } from './input-schemas';
import { nullableToTypeArrays } from './nullable-types';
import { describeOtlpOperations, OTLP_PATHS } from './otlp-operations';
import { describeProblems } from './problem-responses';
import { describeRequestHeaders } from './request-headers';
import { describeResponseHeaders } from './response-headers';
import { describeSecurity } from './security';
import { describeTraceBodies } from './trace-schemas';

/**
 * What @nestjs/swagger's output cannot say from decorators alone, in order: JSON Schema
 * 2020-12 forms (any-JSON, nullable), closed inputs, typed trace and benchmark bodies,
 * security, request headers, problem responses, OTLP's own answers, response headers.
 */
export function refineDocument(doc: OpenAPIObject): OpenAPIObject {
  describeDocumentRoute(doc);
  anyJsonFields(doc);
  nullableToTypeArrays(doc);
  closeInputSchemas(doc);
  describeSecurity(doc);
  describeRequestHeaders(doc);
  describeProblems(doc, [...OTLP_PATHS]);
  describeTraceBodies(doc);
  describeBenchmarkParts(doc);
  describeOtlpOperations(doc);
  describeResponseHeaders(doc);
  return doc;
}
