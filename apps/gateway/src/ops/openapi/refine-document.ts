import type { OpenAPIObject } from '@nestjs/swagger';
import { anyJsonFields } from './any-json-fields';
import { describeBenchmarkParts } from './benchmark-schemas';
import { API_KEY_EXAMPLES } from '../../api-keys/api-keys.examples';
import { BENCHMARK_EXAMPLES } from '../../benchmarks/benchmarks.examples';
import { DATASET_EXAMPLES } from '../../datasets/datasets.examples';
import { MEDIA_EXAMPLES } from '../../media/media.examples';
import { MEDIA_REVIEW_EXAMPLES } from '../../media/media-review.examples';
import { ORGANIZATION_EXAMPLES } from '../../organizations/organizations.examples';
import { OTLP_EXAMPLES } from '../../otlp/otlp.examples';
import { PROJECT_EXAMPLES } from '../../projects/projects.examples';
import { PROMPT_EXAMPLES } from '../../prompts/prompts.examples';
import { SECRET_EXAMPLES } from '../../secrets/secrets.examples';
import { TRACE_EXAMPLES } from '../../traces/traces.examples';
import { OPERATION_EXAMPLES } from '../operations.examples';
import { describeDocumentRoute } from './document-route';
import { closeInputSchemas } from './input-schemas';
import { nullableToTypeArrays } from './nullable-types';
import { describeExamples } from './operation-examples';
import { describeMediaOperations } from './media-operations';
import { describeMediaFrameOperations } from './media-frame-operations';
import { describeOtlpOperations, describeOtlpRoutes, OTLP_PATHS } from './otlp-operations';
import { describeProblems } from './problem-responses';
import { describeRequestHeaders } from './request-headers';
import { describeResponseHeaders } from './response-headers';
import { describeSecurity } from './security';
import { describeTraceBodies } from './trace-schemas';

/**
 * What @nestjs/swagger's output cannot say from decorators alone, in order: JSON Schema
 * 2020-12 forms (any-JSON, nullable), closed inputs, typed trace and benchmark bodies,
 * security, request headers, problem responses, OTLP's own answers, response headers,
 * and an example of every operation (the `*.examples.ts` tables beside the controllers).
 */
export function refineDocument(doc: OpenAPIObject): OpenAPIObject {
  describeDocumentRoute(doc);
  describeOtlpRoutes(doc);
  anyJsonFields(doc);
  nullableToTypeArrays(doc);
  closeInputSchemas(doc);
  describeSecurity(doc);
  describeRequestHeaders(doc);
  describeProblems(doc, [...OTLP_PATHS]);
  describeTraceBodies(doc);
  describeBenchmarkParts(doc);
  describeOtlpOperations(doc);
  describeMediaOperations(doc);
  describeMediaFrameOperations(doc);
  describeResponseHeaders(doc);
  describeExamples(doc, [
    PROJECT_EXAMPLES,
    API_KEY_EXAMPLES,
    SECRET_EXAMPLES,
    ORGANIZATION_EXAMPLES,
    PROMPT_EXAMPLES,
    TRACE_EXAMPLES,
    OTLP_EXAMPLES,
    DATASET_EXAMPLES,
    BENCHMARK_EXAMPLES,
    MEDIA_EXAMPLES,
    MEDIA_REVIEW_EXAMPLES,
    OPERATION_EXAMPLES,
  ]);
  return doc;
}
