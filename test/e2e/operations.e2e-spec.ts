import { expect } from '@jest/globals';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';
import { OpenApiDocument } from './support/openapi-document';

describe('Operations routes (no authentication)', () => {
  const ctx = useStack();
  const anonymous = () => ctx.api.withoutAuth();

  it.each(['/healthz', '/readyz'])('%s answers 200', async (path) => {
    const response = await anonymous().get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toEqual(expect.stringMatching(/\S/));
  });

  it('/readyz reports the store, the bus, the task queue and every service behind the gateway up, and the port OTLP/gRPC listens on', async () => {
    const response = await anonymous().get<Answer<'getReadiness'>>('/readyz');
    expect(response.body).toEqual({
      status: 'ok',
      checks: {
        store: 'up',
        bus: 'up',
        queue: 'up',
        services: { 'project-service': 'up', 'prompt-service': 'up', 'trace-ingest': 'up', 'benchmark-service': 'up', 'media-service': 'up' },
      },
      otlpGrpcPort: Number(ctx.stack.otlpGrpcAddress.split(':')[1]),
    });
  });

  it('/metrics answers Prometheus text', async () => {
    const response = await anonymous().get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.text).toContain('# HELP');
    expect(response.text).toContain('# TYPE');
  });

  it('/api/v1/openapi.json describes the projects routes in OpenAPI 3', async () => {
    const response = await anonymous().get<OpenApiDocument>('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/api/v1/projects', '/api/v1/projects/{id}']));
    expect(Object.keys(response.body.paths['/api/v1/projects'])).toEqual(expect.arrayContaining(['get', 'post']));
  });

  it('/docs answers an HTML page (after redirects, as a browser follows them)', async () => {
    const response = await anonymous().get('/docs', undefined, { followRedirects: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toMatch(/<html/i);
  });
});
