import { BENCHMARK_STATUSES, TASK_STATUSES } from '@cinetrace/contracts';
import { Counter, Histogram } from 'prom-client';
import { oneOf } from './labels';
import { metricsRegistry } from './registry';

export const RUN_STATUSES = BENCHMARK_STATUSES.filter((status) => status !== 'idle');
export { TASK_STATUSES };

/**
 * Counters of transitions, not gauges read from the store: counting rows by status would
 * scan tables that only grow. `rate()` gives runs and tasks per second entering each status;
 * `increase()` over a window how many ended so.
 */
const runs = new Counter({
  name: 'cinetrace_benchmark_runs_total',
  help: 'Benchmark runs that entered each status (queued when started)',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});
const tasks = new Counter({
  name: 'cinetrace_benchmark_tasks_total',
  help: 'Benchmark tasks that entered each status (pending when their run started)',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});
const taskSeconds = new Histogram({
  name: 'cinetrace_benchmark_task_duration_seconds',
  help: "Time from the start of a task's last attempt to its end, by the status it ended in",
  labelNames: ['status'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
  registers: [metricsRegistry],
});

/** Called by benchmark-service at start: every status's series at 0 from then on (see startIngestSeries). */
export function startBenchmarkSeries(): void {
  for (const status of RUN_STATUSES) runs.inc({ status }, 0);
  for (const status of TASK_STATUSES) tasks.inc({ status }, 0);
}

export function countRunsEntered(status: string, count = 1): void {
  if (count > 0) runs.inc({ status: oneOf(RUN_STATUSES, status) }, count);
}

export function countTasksEntered(status: string, count = 1): void {
  if (count > 0) tasks.inc({ status: oneOf(TASK_STATUSES, status) }, count);
}

export function observeTaskDuration(status: string, seconds: number): void {
  if (seconds >= 0) taskSeconds.observe({ status: oneOf(TASK_STATUSES, status) }, seconds);
}
