import { Gauge } from 'prom-client';
import { registerOptionalGauge } from './optional-gauge';
import { metricsRegistry } from './registry';

/** BullMQ's own states: `waiting` to be taken, `active` being run, `delayed` in a retry's backoff. */
export const TASK_QUEUE_STATES = ['waiting', 'active', 'delayed'] as const;
export type TaskQueueState = (typeof TASK_QUEUE_STATES)[number];

/** What the process's task queue says when scraped (BullMQ in Redis, or the in-process runner). */
export interface TaskQueueReading {
  jobs(): Promise<Record<TaskQueueState, number>>;
  workers(): Promise<number>;
}

let reading: TaskQueueReading | undefined;

export function reportTaskQueueFrom(source: TaskQueueReading): void {
  reading = source;
}

// Read at scrape time (a few Redis commands per scrape); a queue that cannot answer exports no sample.
new Gauge({
  name: 'cinetrace_task_queue_jobs',
  help: 'Benchmark tasks in the task queue, by state',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const jobs = await reading?.jobs().catch(() => undefined);
    if (jobs) for (const state of TASK_QUEUE_STATES) this.set({ state }, jobs[state] ?? 0);
  },
});
registerOptionalGauge('cinetrace_task_queue_workers', 'Workers taking tasks from the task queue (benchmark-worker processes; 1 for the in-process runner)', () =>
  reading?.workers(),
);
