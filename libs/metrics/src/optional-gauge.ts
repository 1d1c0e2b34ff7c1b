import type { Metric } from 'prom-client';
import { metricsRegistry } from './registry';

/**
 * A gauge without labels that has no sample while its value is unknown. prom-client's own
 * Gauge always shows 0 when it has no labels, and a lag of 0 would read as "caught up" when
 * the truth is "cannot tell" (no reading yet, or nothing to read in this mode). An absent
 * series says that honestly: `absent()` can alert on it.
 */
export function registerOptionalGauge(name: string, help: string, read: () => number | undefined | Promise<number | undefined>): void {
  const gauge = {
    name,
    help,
    type: 'gauge',
    aggregator: 'sum',
    async get() {
      const value = await Promise.resolve()
        .then(read)
        .catch(() => undefined);
      return { name, help, type: 'gauge', aggregator: 'sum', values: value === undefined || !Number.isFinite(value) ? [] : [{ value, labels: {} }] };
    },
    reset() {},
  };
  // prom-client's registry reads a metric through get(); its typings list only its own classes.
  metricsRegistry.registerMetric(gauge as unknown as Metric);
}
