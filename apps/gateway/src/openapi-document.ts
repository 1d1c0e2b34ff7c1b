import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_EXAMPLES } from './api-keys/api-keys.examples';
import { BENCHMARK_EXAMPLES } from './benchmarks/benchmarks.examples';
import { describeBenchmarkParts } from './benchmarks/benchmarks.openapi';
import { DATASET_EXAMPLES } from './datasets/datasets.examples';
import { OTLP_EXAMPLES } from './ingest/otlp.examples';
import { describeOtlpOperations, describeOtlpRoutes, OTLP_PATHS } from './ingest/otlp.openapi';
import { MEDIA_REVIEW_EXAMPLES } from './media/media-review.examples';
import { describeMediaFrameOperations } from './media/media-review.openapi';
import { MEDIA_EXAMPLES } from './media/media.examples';
import { describeMediaOperations } from './media/media.openapi';
import { anyJsonFields } from './openapi/any-json-fields';
import { describeDocumentRoute } from './openapi/document-route';
import { closeInputSchemas } from './openapi/input-schemas';
import { nullableToTypeArrays } from './openapi/nullable-types';
import { describeExamples } from './openapi/operation-examples';
import { describeProblems } from './openapi/problem-responses';
import { describeRequestHeaders } from './openapi/request-headers';
import { describeResponseHeaders } from './openapi/response-headers';
import { describeSecurity } from './openapi/security';
import { OPERATION_EXAMPLES } from './ops/operations.examples';
import { ORGANIZATION_EXAMPLES } from './organizations/organizations.examples';
import { PROJECT_EXAMPLES } from './projects/projects.examples';
import { PROMPT_EXAMPLES } from './prompts/prompts.examples';
import { SCORE_EXAMPLES } from './scores/scores.examples';
import { describeScoreBodies } from './scores/scores.openapi';
import { SECRET_EXAMPLES } from './secrets/secrets.examples';
import { MODEL_PRICE_EXAMPLES } from './traces/model-prices.examples';
import { describeModelPrices } from './traces/model-prices.openapi';
import { TRACE_EXAMPLES } from './traces/traces.examples';
import { describeTraceBodies } from './traces/traces.openapi';

/** The OpenAPI 3.1 document, generated from the controllers, DTOs and validators, then refined. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cinetrace API')
    .setDescription(
      'Traces and their scores, versioned prompts, datasets and benchmark runs for generative video workflows. ' +
        'Every error is RFC 9457 problem details (application/problem+json) but on the OTLP routes, which answer a google.rpc.Status.',
    )
    .setVersion('1')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer('/', 'This server')
    .build();
  return refineDocument(SwaggerModule.createDocument(app, config));
}

/**
 * What @nestjs/swagger's output cannot say from decorators alone, in order: JSON Schema
 * 2020-12 forms (any-JSON, nullable), closed inputs, security, request headers, problem
 * responses (openapi/, for every route), then what each domain says of its own routes
 * (`<domain>/*.openapi.ts`: typed trace and benchmark bodies, OTLP's own answers, media
 * bytes), response headers, and an example of every operation (`<domain>/*.examples.ts`).
 * It lists every domain, as the module does: it sits at the top, beside it.
 */
function refineDocument(doc: OpenAPIObject): OpenAPIObject {
  describeDocumentRoute(doc);
  describeOtlpRoutes(doc);
  anyJsonFields(doc);
  nullableToTypeArrays(doc);
  closeInputSchemas(doc);
  describeSecurity(doc);
  describeRequestHeaders(doc);
  describeProblems(doc, [...OTLP_PATHS]);
  describeTraceBodies(doc);
  describeModelPrices(doc);
  describeScoreBodies(doc);
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
    MODEL_PRICE_EXAMPLES,
    SCORE_EXAMPLES,
    OTLP_EXAMPLES,
    DATASET_EXAMPLES,
    BENCHMARK_EXAMPLES,
    MEDIA_EXAMPLES,
    MEDIA_REVIEW_EXAMPLES,
    OPERATION_EXAMPLES,
  ]);
  return doc;
}
