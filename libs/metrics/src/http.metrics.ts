import { Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/** The gateway's request durations, under the name it has always exported. */
const durations = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration in seconds, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** `route` must be a route template (or `unmatched`), never a raw URL. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  durations.observe({ method, route, status: String(status) }, seconds);
}
