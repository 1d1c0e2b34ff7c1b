import { benchmarkOn, captionItems, runEnds, startOk } from './support/benchmarks';
import { promtoolComplaints, sampleOf, scrape, scrapedApps, valueOf } from './support/metrics';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { aSpan, aTrace, anId, eventually, ingest, TRACES } from './support/traces';

jest.setTimeout(120_000);

/** Polls until the metric has grown by at least `by` from `before`; gives its value. */
function grows(ctx: { stack: Parameters<typeof valueOf>[0] }, name: string, labels: Record<string, string>, before: number, by = 1): Promise<number> {
  return eventually(`${name}${JSON.stringify(labels)} to grow by ${by} from ${before}`, async () => {
    const now = await valueOf(ctx.stack, name, labels);
    return now >= before + by ? now : undefined;
  });
}

describe('/metrics: the metrics of the work', () => {
  // Its own stack: the tests count what the whole stack counted meanwhile.
  const ctx = useStack({ own: true });

  it('every app serves /metrics that promtool finds clean', async () => {
    // Some traffic first, so that histograms and labelled series have samples to check.
    const { api } = await inNewProject(ctx.api);
    await ingest(api, aTrace(), { wait: true });
    for (const app of scrapedApps(ctx.stack)) {
      const text = await scrape(ctx.stack, app);
      expect(text).toContain('# TYPE');
      expect({ app, complaints: promtoolComplaints(text) }).toEqual({ app, complaints: '' });
    }
  });

  it('counts an accepted trace and its spans, and the store batch that wrote it', async () => {
    const { api } = await inNewProject(ctx.api);
    const traces = await valueOf(ctx.stack, 'cinetrace_ingest_traces_accepted_total');
    const spans = await valueOf(ctx.stack, 'cinetrace_ingest_spans_accepted_total');
    const batches = await valueOf(ctx.stack, 'cinetrace_trace_store_batch_records_count');
    const stored = await valueOf(ctx.stack, 'cinetrace_trace_store_batch_records_sum');
    const writes = await valueOf(ctx.stack, 'cinetrace_trace_store_batch_write_duration_seconds_count', { outcome: 'ok' });

    await ingest(api, aTrace(), { wait: true });

    expect(await valueOf(ctx.stack, 'cinetrace_ingest_traces_accepted_total')).toBe(traces + 1);
    expect(await valueOf(ctx.stack, 'cinetrace_ingest_spans_accepted_total')).toBe(spans + 3);
    await grows(ctx, 'cinetrace_trace_store_batch_records_count', {}, batches);
    await grows(ctx, 'cinetrace_trace_store_batch_records_sum', {}, stored);
    await grows(ctx, 'cinetrace_trace_store_batch_write_duration_seconds_count', { outcome: 'ok' }, writes);
  });

  it('reports the ingest lag: records in both modes, bytes where records are serialized (distributed)', async () => {
    const { api } = await inNewProject(ctx.api);
    await ingest(api, aTrace(), { wait: true });
    // The distributed gateway's lag gate reads the group's lag every 500 ms; all-in-one counts its queue at once.
    const lag = await eventually('a lag sample', async () => {
      const text = await scrape(ctx.stack, 'gateway');
      const records = sampleOf(text, 'cinetrace_ingest_lag_records');
      const bytes = sampleOf(text, 'cinetrace_ingest_lag_bytes');
      return records !== undefined && (ctx.stack.mode === 'all-in-one' || bytes !== undefined) ? { records, bytes } : undefined;
    });
    expect(lag.records).toBeGreaterThanOrEqual(0);
    if (ctx.stack.mode === 'all-in-one') expect(lag.bytes).toBeUndefined();
    else expect(lag.bytes).toBeGreaterThanOrEqual(0);
  });

  it('counts rejected traces and their spans by reason', async () => {
    const { api } = await inNewProject(ctx.api);
    const invalid = await valueOf(ctx.stack, 'cinetrace_ingest_traces_rejected_total', { reason: 'invalid' });
    const invalidSpans = await valueOf(ctx.stack, 'cinetrace_ingest_spans_rejected_total', { reason: 'invalid' });
    const orphan = await valueOf(ctx.stack, 'cinetrace_ingest_traces_rejected_total', { reason: 'unknown_parent' });

    expect((await api.post(TRACES, aTrace({ spans: [aSpan({ startTime: 'not a time' }), aSpan()] }))).status).toBe(400);
    expect((await api.post(TRACES, aTrace({ spans: [aSpan({ parentId: anId('nowhere') })] }))).status).toBe(400);

    expect(await valueOf(ctx.stack, 'cinetrace_ingest_traces_rejected_total', { reason: 'invalid' })).toBe(invalid + 1);
    expect(await valueOf(ctx.stack, 'cinetrace_ingest_spans_rejected_total', { reason: 'invalid' })).toBe(invalidSpans + 2);
    expect(await valueOf(ctx.stack, 'cinetrace_ingest_traces_rejected_total', { reason: 'unknown_parent' })).toBe(orphan + 1);
  });

  it('times bus requests by pattern and counts auth-cache hits', async () => {
    const { api } = await inNewProject(ctx.api);
    const gets = await valueOf(ctx.stack, 'cinetrace_bus_request_duration_seconds_count', { pattern: 'trace.traces.get', outcome: 'error' });
    const hits = await valueOf(ctx.stack, 'cinetrace_auth_cache_lookups_total', { result: 'hit' });

    // Not found: trace-ingest answers with a domain error, which is an answer (outcome "error").
    expect((await api.get(`${TRACES}/${anId('missing')}`)).status).toBe(404);
    expect((await api.get(`${TRACES}/${anId('missing')}`)).status).toBe(404);

    expect(await valueOf(ctx.stack, 'cinetrace_bus_request_duration_seconds_count', { pattern: 'trace.traces.get', outcome: 'error' })).toBe(gets + 2);
    expect(await valueOf(ctx.stack, 'cinetrace_auth_cache_lookups_total', { result: 'hit' })).toBeGreaterThan(hits);
  });

  it('counts a benchmark run and its tasks by status, times the tasks, and reports the task queue', async () => {
    const { api } = await inNewProject(ctx.api);
    const completed = await valueOf(ctx.stack, 'cinetrace_benchmark_tasks_total', { status: 'completed' });
    const pending = await valueOf(ctx.stack, 'cinetrace_benchmark_tasks_total', { status: 'pending' });
    const runsCompleted = await valueOf(ctx.stack, 'cinetrace_benchmark_runs_total', { status: 'completed' });
    const timed = await valueOf(ctx.stack, 'cinetrace_benchmark_task_duration_seconds_count', { status: 'completed' });

    const { benchmarkId } = await benchmarkOn(api, captionItems(3));
    const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
    expect(run.status).toBe('completed');

    expect(await valueOf(ctx.stack, 'cinetrace_benchmark_tasks_total', { status: 'pending' })).toBe(pending + 3);
    await grows(ctx, 'cinetrace_benchmark_tasks_total', { status: 'completed' }, completed, 3);
    await grows(ctx, 'cinetrace_benchmark_runs_total', { status: 'completed' }, runsCompleted, 1);
    await grows(ctx, 'cinetrace_benchmark_task_duration_seconds_count', { status: 'completed' }, timed, 3);
    expect(await valueOf(ctx.stack, 'cinetrace_task_queue_workers')).toBeGreaterThanOrEqual(1);
    expect(await valueOf(ctx.stack, 'cinetrace_task_queue_jobs', { state: 'active' })).toBeGreaterThanOrEqual(0);
    expect(await scrape(ctx.stack, ctx.stack.mode === 'distributed' ? 'benchmark-worker' : 'gateway')).toMatch(/^cinetrace_task_queue_jobs\{state="waiting"\} \d+$/m);
  });

  it('shows no keys, project ids or stack traces', async () => {
    const { api, projectId } = await inNewProject(ctx.api);
    await ingest(api, aTrace(), { wait: true });
    for (const app of scrapedApps(ctx.stack)) {
      const text = await scrape(ctx.stack, app);
      expect(text).not.toContain(ctx.stack.apiKey);
      expect(text).not.toContain(projectId);
      expect(text).not.toMatch(/prj_|key_|run_|trc_|\n\s+at /);
    }
  });
});
