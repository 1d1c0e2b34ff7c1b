import type { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { secureDocsPage } from './docs-page-headers';
import { refineDocument } from './openapi/refine-document';

/** The OpenAPI 3.1 document, generated from the controllers, DTOs and validators, then refined (openapi/refine-document.ts). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cinetrace API')
    .setDescription(
      'Traces, versioned prompts, datasets and benchmark runs for generative video workflows. ' +
        'Every error is RFC 9457 problem details (application/problem+json) but on the OTLP routes, which answer a google.rpc.Status.',
    )
    .setVersion('1')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer('/', 'This server')
    .build();
  return refineDocument(SwaggerModule.createDocument(app, config));
}

/**
 * Serves the document at /api/v1/openapi.json (and YAML), and a page to browse it at /docs
 * under its own Content-Security-Policy (docs-page-headers.ts). The page never calls
 * validator.swagger.io (Swagger UI's default badge): a self-hosted service's reference
 * does not send its address out, and the policy lets no image in from elsewhere.
 */
export function setupOpenApi(app: NestFastifyApplication): void {
  const document = buildOpenApiDocument(app);
  secureDocsPage(app.getHttpAdapter().getInstance());
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'api/v1/openapi.json',
    yamlDocumentUrl: 'api/v1/openapi.yaml',
    swaggerOptions: { validatorUrl: null },
  });
}
