import { Patterns } from '@cinetrace/contracts';
import {
  AUTH_CACHE_RESULTS,
  collectProcessMetrics,
  BUS_OUTCOMES,
  countAuthCacheLookup,
  countRunsEntered,
  countTasksEntered,
  countTracesRejected,
  metricsRegistry,
  observeBusRequest,
  observeOutboundCall,
  OUTBOUND_TARGET_TYPES,
  reportIngestLagFrom,
  metricsText,
  oneOf,
  RUN_STATUSES,
  startAuthCacheSeries,
  startBenchmarkSeries,
  startIngestSeries,
  TASK_QUEUE_STATES,
  TASK_STATUSES,
  TRACE_REJECT_REASONS,
} from './index';

/** Every label value the registry holds now, by metric and label name. */
async function labelValues(metric: string, label: string): Promise<Set<string>> {
  const found = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === metric);
  if (!found) throw new Error(`no metric ${metric}`);
  return new Set(found.values.map((v) => String((v.labels as Record<string, unknown>)[label])).filter((v) => v !== 'undefined'));
}

/** prom-client declares `type` a numeric enum, but getMetricsAsJSON() gives its name ('counter'). */
const isCounter = (metric: { type: unknown }): boolean => metric.type === 'counter';

describe('the metrics of the work', () => {
  it('are named per Prometheus conventions: cinetrace_ prefix, counters in _total, base units', async () => {
    const metrics = await metricsRegistry.getMetricsAsJSON();
    const ours = metrics.filter((m) => m.name !== 'http_request_duration_seconds');
    expect(ours.length).toBeGreaterThan(10);
    for (const metric of ours) {
      expect(metric.name).toMatch(/^cinetrace_[a-z_]+$/);
      if (isCounter(metric)) expect(metric.name).toMatch(/_total$/);
      else expect(metric.name).not.toMatch(/_total$/);
      expect(metric.name).not.toMatch(/_(ms|milliseconds|kb|mb)(_|$)/);
    }
  });

  it('carry only fixed label names: no ids, URLs or free text', async () => {
    const allowed = new Set(['reason', 'outcome', 'pattern', 'result', 'status', 'state', 'target_type', 'method', 'route', 'le']);
    for (const metric of await metricsRegistry.getMetricsAsJSON()) {
      for (const value of metric.values) for (const label of Object.keys(value.labels)) expect(allowed).toContain(label);
    }
  });

  it('count a rejected trace under its reason, from the fixed set only', async () => {
    startIngestSeries();
    countTracesRejected('invalid', 1, 3);
    countTracesRejected('made up' as never, 1, 0);
    expect(await labelValues('cinetrace_ingest_traces_rejected_total', 'reason')).toEqual(new Set([...TRACE_REJECT_REASONS, 'other']));
  });

  it('label bus requests by the contracts\' patterns; anything else is "other"', async () => {
    observeBusRequest(Patterns.TraceGet, 'ok', 0.002);
    observeBusRequest('trace.traces.get/trc_01hxyz', 'ok', 0.002);
    observeBusRequest(Patterns.ProjectGet, 'nonsense' as never, 0.002);
    const patterns = await labelValues('cinetrace_bus_request_duration_seconds', 'pattern');
    for (const pattern of patterns) expect([...Object.values(Patterns), 'other']).toContain(pattern);
    expect(patterns).toContain(Patterns.TraceGet);
    expect(patterns).toContain('other');
    for (const outcome of await labelValues('cinetrace_bus_request_duration_seconds', 'outcome')) expect([...BUS_OUTCOMES, 'other']).toContain(outcome);
  });

  it('never take a URL as an outbound target type', async () => {
    observeOutboundCall('https://api.example.com/v1?key=secret', 'ok', 0.1);
    observeOutboundCall('openai_chat', 'timeout', 1);
    // A media fetch (POST /media { url }, a copy of an output's url) is its own type.
    observeOutboundCall('media', 'ok', 2);
    const types = await labelValues('cinetrace_outbound_request_duration_seconds', 'target_type');
    expect(types).toEqual(new Set(['other', 'openai_chat', 'media']));
    for (const type of types) expect([...OUTBOUND_TARGET_TYPES, 'other']).toContain(type);
  });

  it('start the fixed label sets at zero when their app starts them, so a first event is a rate and not a new series', async () => {
    startAuthCacheSeries();
    startBenchmarkSeries();
    startIngestSeries();
    expect(await labelValues('cinetrace_auth_cache_lookups_total', 'result')).toEqual(new Set(AUTH_CACHE_RESULTS));
    expect(await labelValues('cinetrace_benchmark_runs_total', 'status')).toEqual(new Set(RUN_STATUSES));
    expect(await labelValues('cinetrace_benchmark_tasks_total', 'status')).toEqual(new Set(TASK_STATUSES));
    countAuthCacheLookup('hit');
    countRunsEntered('idle');
    countTasksEntered('completed', 0);
    expect(await labelValues('cinetrace_benchmark_runs_total', 'status')).toContain('other');
  });

  it('report the task queue by the three BullMQ states', () => {
    expect(TASK_QUEUE_STATES).toEqual(['waiting', 'active', 'delayed']);
  });

  it('oneOf keeps a value of the set and folds anything else', () => {
    expect(oneOf(['a', 'b'], 'a')).toBe('a');
    expect(oneOf(['a', 'b'], 'c')).toBe('other');
    expect(oneOf(['a', 'b'], undefined)).toBe('other');
  });
});

describe('the process metrics', () => {
  it("keep no gauge named like a counter (promtool refuses prom-client's nodejs_active_*_total)", async () => {
    collectProcessMetrics('test-app');
    const metrics = await metricsRegistry.getMetricsAsJSON();
    expect(metrics.map((m) => m.name)).toContain('cinetrace_test_app_nodejs_active_handles');
    for (const metric of metrics) if (!isCounter(metric)) expect(metric.name).not.toMatch(/_total$/);
  });
});

describe('a gauge whose value is unknown', () => {
  it('has no sample (not a misleading 0), and one once the value is known', async () => {
    let bytes: number | undefined;
    reportIngestLagFrom({ records: () => 4, bytes: () => bytes });
    let text = await metricsText();
    expect(text).toMatch(/^cinetrace_ingest_lag_records 4$/m);
    expect(text).toContain('# TYPE cinetrace_ingest_lag_bytes gauge');
    expect(text).not.toMatch(/^cinetrace_ingest_lag_bytes /m);
    bytes = 2048;
    text = await metricsText();
    expect(text).toMatch(/^cinetrace_ingest_lag_bytes 2048$/m);
  });
});
