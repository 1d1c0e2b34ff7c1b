import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one registry of the process. Every metric of every module registers here, so one
 * scrape shows the whole process: each app's own in the distributed mode, everything in
 * all-in-one (where the services share the process, and so this module).
 */
export const metricsRegistry = new Registry();

/** What Prometheus' text format 0.0.4 is served as. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

let processMetricsPrefix: string | undefined;

/**
 * Node's process metrics (CPU, memory, event loop, GC) under `cinetrace_<app>_`, once per
 * process: the first app to ask names them (in all-in-one, the process itself). The
 * gateway has always exported them as `cinetrace_gateway_…`; dashboards rely on that.
 */
export function collectProcessMetrics(app: string): void {
  if (processMetricsPrefix !== undefined) return;
  processMetricsPrefix = `cinetrace_${app.replace(/[^a-zA-Z0-9]/g, '_')}_`;
  collectDefaultMetrics({ register: metricsRegistry, prefix: processMetricsPrefix });
  // prom-client names three gauges `…_total`, which Prometheus keeps for counters (promtool
  // complains). Each is the sum of its by-type gauge, which stays: sum(…nodejs_active_handles).
  for (const kind of ['handles', 'requests', 'resources']) {
    metricsRegistry.removeSingleMetric(`${processMetricsPrefix}nodejs_active_${kind}_total`);
  }
}

/** The exposition text of every metric of the process. */
export function metricsText(): Promise<string> {
  return metricsRegistry.metrics();
}
