import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI 3.1 document, generated from the controllers and DTOs, at /api/v1/openapi.json, and a page at /docs. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cinetrace API')
    .setDescription('Traces, versioned prompts, datasets and benchmark runs for generative video workflows.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Organization API key' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Project-Key' }, 'project-key')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'api/v1/openapi.json', yamlDocumentUrl: 'api/v1/openapi.yaml' });
}
