'use strict';
// Baseline of the run benchmark (bench/runs.js): bare BullMQ doing a run's work, nothing
// else. A Worker (the service's lock and stall settings, BASELINE_CONCURRENCY jobs at once)
// is started first; then BASELINE_TASKS jobs, each carrying a task's payload (the item,
// target and scorers, as benchmark-service enqueues them, with its job options), are added
// with addBulk in rounds of 500. Each job takes the item's stored output as its output
// and scores it with exact_match; the result is the job's return value, kept by BullMQ
// in Redis as a completed job. Timed from the first add to the last job completed.
// Prints one line `RESULT {json}` and removes its queue from Redis.
// Environment: REDIS_URL (redis://127.0.0.1:6379), QUEUE_PREFIX (bench-baseline-<random>),
// BASELINE_TASKS (10000), BASELINE_CONCURRENCY (16).
const { randomBytes } = require('node:crypto');
const { Queue, Worker } = require('bullmq');
const { taskJob, processTask, WORKER_SETTINGS } = require('./lib/run-items');

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PREFIX = process.env.QUEUE_PREFIX || `bench-baseline-${randomBytes(4).toString('hex')}`;
const TASKS = Number(process.env.BASELINE_TASKS || 10000);
const CONCURRENCY = Number(process.env.BASELINE_CONCURRENCY || 16);
const QUEUE = 'benchmark-tasks';
const ADD_CHUNK = 500; // as benchmark-service's enqueue

function connection() {
  const url = new URL(REDIS_URL);
  return { host: url.hostname, port: Number(url.port || 6379), db: Number(url.pathname.slice(1) || 0), maxRetriesPerRequest: null };
}

async function main() {
  const runId = randomBytes(6).toString('hex');
  const queue = new Queue(QUEUE, { connection: connection(), prefix: PREFIX });
  let completed = 0;
  let failed = 0;
  let passed = 0;
  let lastAt = 0;
  let resolveAll;
  const all = new Promise((r) => (resolveAll = r));
  const worker = new Worker(QUEUE, async (job) => processTask(job.data), { connection: connection(), prefix: PREFIX, concurrency: CONCURRENCY, ...WORKER_SETTINGS });
  worker.on('completed', (job, result) => {
    completed++;
    if (result.scores.every((s) => s.passed)) passed++;
    if (completed + failed === TASKS) {
      lastAt = performance.now();
      resolveAll();
    }
  });
  worker.on('failed', (job, err) => {
    if (job && job.attemptsMade < job.opts.attempts) return; // retried
    failed++;
    console.error(`job ${job?.id} failed: ${err.message}`);
    if (completed + failed === TASKS) {
      lastAt = performance.now();
      resolveAll();
    }
  });
  worker.on('error', (err) => console.error(`worker: ${err.message}`));
  try {
    await queue.waitUntilReady();
    await worker.waitUntilReady();
    void worker.run();
    // Payloads built before the clock starts (the service has its tasks in its database).
    const jobs = Array.from({ length: TASKS }, (_, i) => taskJob(runId, i));
    const t0 = performance.now();
    let addedAt = t0;
    for (let i = 0; i < jobs.length; i += ADD_CHUNK) await queue.addBulk(jobs.slice(i, i + ADD_CHUNK));
    addedAt = performance.now();
    const timeout = setTimeout(() => resolveAll(), Math.max(120000, TASKS * 20));
    await all;
    clearTimeout(timeout);
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    const seconds = ((lastAt || performance.now()) - t0) / 1000;
    const result = {
      tasks: TASKS,
      concurrency: CONCURRENCY,
      completed,
      failed,
      passed,
      counts,
      seconds,
      addSeconds: (addedAt - t0) / 1000,
      tasksPerSec: completed / seconds,
      timedOut: !lastAt,
    };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await worker.close().catch(() => undefined);
    await queue.obliterate({ force: true }).catch((e) => console.error(`obliterate: ${e.message}`));
    await queue.close().catch(() => undefined);
  }
}

main()
  .then(() => process.exit(0))
  .catch((e) => {
    console.error(`baseline failed: ${e.stack || e.message}`);
    process.exit(1);
  });
