import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { secureDocsPage } from './docs-page-headers';

/**
 * Serves the document at /api/v1/openapi.json (and YAML), and a page to browse it at /docs
 * under its own Content-Security-Policy (docs-page-headers.ts). The page never calls
 * validator.swagger.io (Swagger UI's default badge): a self-hosted service's reference
 * does not send its address out, and the policy lets no image in from elsewhere.
 */
export function serveOpenApiDocument(app: NestFastifyApplication, document: OpenAPIObject): void {
  secureDocsPage(app.getHttpAdapter().getInstance());
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'api/v1/openapi.json',
    yamlDocumentUrl: 'api/v1/openapi.yaml',
    swaggerOptions: { validatorUrl: null },
  });
}
