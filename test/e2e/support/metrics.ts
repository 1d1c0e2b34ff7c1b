import type { Stack } from '@cinetrace/testing';
import { spawnSync } from 'node:child_process';

/** The apps of the distributed mode that serve /metrics (the gateway on its PORT, the others on HEALTH_PORT). */
export const METRICS_APPS = ['gateway', 'project-service', 'prompt-service', 'trace-ingest', 'benchmark-service', 'benchmark-worker', 'media-service'] as const;
export type MetricsApp = (typeof METRICS_APPS)[number];

/** The apps whose /metrics to read: each one in the distributed mode, the one process in all-in-one. */
export function scrapedApps(stack: Stack): readonly MetricsApp[] {
  return stack.mode === 'distributed' ? METRICS_APPS : ['gateway'];
}

/** The exposition text an app serves on /metrics (in all-in-one, every app's is the process's). */
export async function scrape(stack: Stack, app: MetricsApp): Promise<string> {
  const response = await fetch(`${stack.healthUrl(app)}/metrics`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${app}/metrics answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

/** What `promtool check metrics` says of the text: '' when it has no complaint. */
export function promtoolComplaints(text: string): string {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool could not run (apt-get install prometheus): ${run.error.message}`);
  const said = `${run.stdout}${run.stderr}`.trim();
  return run.status === 0 && said === '' ? '' : `exit ${run.status}: ${said}`;
}

/**
 * The sum of the samples of `name` whose labels include `labels` (a histogram's `_count`
 * or `_sum` is a name of its own). Undefined when no sample matches.
 */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[3] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum = (sum ?? 0) + Number(match[4]);
  }
  return sum;
}

/** Where each metric of the work is exported in the distributed mode (all-in-one: the one process). */
export const EXPORTER: Record<string, MetricsApp> = {
  cinetrace_ingest_traces_accepted_total: 'gateway',
  cinetrace_ingest_spans_accepted_total: 'gateway',
  cinetrace_ingest_traces_rejected_total: 'gateway',
  cinetrace_ingest_spans_rejected_total: 'gateway',
  cinetrace_auth_cache_lookups_total: 'gateway',
  cinetrace_bus_request_duration_seconds_count: 'gateway',
  cinetrace_trace_store_batch_records_count: 'trace-ingest',
  cinetrace_trace_store_batch_records_sum: 'trace-ingest',
  cinetrace_trace_store_batch_write_duration_seconds_count: 'trace-ingest',
  cinetrace_benchmark_runs_total: 'benchmark-service',
  cinetrace_benchmark_tasks_total: 'benchmark-service',
  cinetrace_benchmark_task_duration_seconds_count: 'benchmark-service',
  cinetrace_task_queue_jobs: 'benchmark-worker',
  cinetrace_task_queue_workers: 'benchmark-worker',
  cinetrace_media_copies_total: 'media-service',
  cinetrace_media_probe_duration_seconds_count: 'media-service',
  cinetrace_media_probe_duration_seconds_sum: 'media-service',
};

/** A metric's value where it is exported; 0 when it has no matching sample yet. */
export async function valueOf(stack: Stack, name: string, labels: Record<string, string> = {}): Promise<number> {
  const app = stack.mode === 'distributed' ? EXPORTER[name] : 'gateway';
  if (!app) throw new Error(`no exporter known for ${name}`);
  return sampleOf(await scrape(stack, app), name, labels) ?? 0;
}
