import type { ExampleTable } from '../openapi/operation-examples';

const METRICS = [
  '# HELP http_request_duration_seconds HTTP request duration in seconds, by method, route template and status',
  '# TYPE http_request_duration_seconds histogram',
  'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/traces",status="200"} 3',
  'http_request_duration_seconds_count{method="GET",route="/api/v1/traces",status="200"} 4',
  'http_request_duration_seconds_sum{method="GET",route="/api/v1/traces",status="200"} 0.021',
  '',
].join('\n');

export const OPERATION_EXAMPLES: ExampleTable = {
  getHealth: { response: { status: 'ok' } },
  getReadiness: {
    response: {
      status: 'ok',
      checks: {
        store: 'up',
        bus: 'up',
        queue: 'up',
        services: { 'project-service': 'up', 'prompt-service': 'up', 'trace-ingest': 'up', 'benchmark-service': 'up', 'media-service': 'up' },
      },
      otlpGrpcPort: 4317,
    },
  },
  getMetrics: { response: METRICS },
  getOpenApiDocument: { response: { openapi: '3.1.0', info: { title: 'Cinetrace API', version: '1' }, paths: {} } },
};
