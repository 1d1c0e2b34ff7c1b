'use strict';
// Benchmark-run task throughput, for the service in each run mode and for a bare BullMQ
// baseline measured in the same invocation, on this machine:
//   1. a dataset of --tasks items (added 1000 per request) whose stored outputs
//      (metadata.output) equal their expected values, and a benchmark on it: target
//      `{ type: 'dataset' }` (no call out), one `exact_match` scorer, runner concurrency
//      --concurrency (64, the most a run allows);
//   2. a warm-up run of --warmup items on a dataset of its own (not measured; the floor gets one
//      too): a fresh broker's JVM compiles for its first ~10-20 s, and the service's first
//      run of 10,000 measured 1,057 tasks/s where its third measured 1,653 (bench/HISTORY.md);
//   3. the measured run: from POST /start (202) until GET /runs shows it ended, polled
//      every --poll-ms (1000, as the console's run page) and every --end-poll-ms (100) once
//      the end is due within three polls, so that the end is seen within ~100 ms while the
//      polls cost the service what a person watching costs it (ten a second had cost it
//      ~0.1 ms of CPU a task: bench/HISTORY.md, round twenty-three); tasks/s = tasks / that
//      time. Then the counts: every task must be completed with its score passed (the
//      run's counts and scores, the tasks route's summary, and the tasks listed with
//      status=completed);
//   4. the baseline (bench/baseline-bullmq.js): the same jobs through bare BullMQ on the
//      same Redis with the same number of jobs at once as the service executes;
//   5. distributed mode only, the floor (bench/baseline-runs-floor.js): that baseline plus
//      the least the design asks of each task, with bare libraries: its `finished` event
//      and trace through Kafka (a broker of its own, as the service's) and both stored in
//      PostgreSQL by a consumer process. What is left between the floor and the bare
//      baseline is the cost of the design on this machine, not of the service's code.
// Usage: node bench/runs.js [--mode both|all-in-one|distributed] [--tasks 10000]
//          [--concurrency 64] [--worker-concurrency <worker's default, 64>] [--runs 1] [--warmup 10000]
//          [--only service|baseline|floor] [--apps a,b,gateway] (more in bench/README.md;
//          --only floor measures the bare baseline and the floor)
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const c = require('./lib/common');
const { startCpu, formatCpu, formatCpuPerItem, nameProcesses } = require('./lib/cpu');
const { runItem, RUN_SCORERS } = require('./lib/run-items');

const opts = c.parseArgs(process.argv.slice(2), {
  mode: 'both',
  tasks: 10000,
  concurrency: 64, // the run's runner.concurrency (1..64)
  'worker-concurrency': 0, // distributed: WORKER_CONCURRENCY of the benchmark-worker (0: its default)
  runs: 3, // measured runs per subject and mode, in turns (each a new start of the same benchmark); the ratios judged are the turns' median
  warmup: 10000, // tasks of the warm-up run, service and floor alike (0: none)
  'poll-ms': 1000, // as the console's run page polls (RUN_POLL_MS)
  'end-poll-ms': 100, // once the run's end is due within three polls: how close to it the end is seen
  timeout: 600, // seconds one run may take before it counts as not finished
  only: '', // service, baseline (the bare baseline) or floor (distributed: the floor)
  apps: '', // distributed: start these apps directly instead of scripts/start-distributed.js
  versus: '', // a JSON object of settings: the service with them as one more subject, in turn with the rest (an A/B in one run)
  'versus-root': '', // another checkout, built: the versus subject runs its build (with --versus's settings, if any)
});
/** The settings of the --versus subject, or null when there is none. */
const VERSUS_ENV = opts.versus || opts['versus-root'] ? JSON.parse(opts.versus || '{}') : null;
const VERSUS_ROOT = opts['versus-root'] ? path.resolve(opts['versus-root']) : c.ROOT;
if (!require('node:fs').existsSync(path.join(VERSUS_ROOT, 'apps/gateway/dist/main.js')))
  throw new Error(`--versus-root ${VERSUS_ROOT} holds no build (apps/gateway/dist/main.js): npm ci and npm run build there first`);
const MODES = opts.mode === 'both' ? ['all-in-one', 'distributed'] : [opts.mode];
for (const m of MODES) if (!['all-in-one', 'distributed'].includes(m)) throw new Error('--mode is both, all-in-one or distributed');
if (!['', 'service', 'baseline', 'floor'].includes(opts.only)) throw new Error('--only is service, baseline or floor');
if (!opts['worker-concurrency']) opts['worker-concurrency'] = workerDefaultConcurrency();
/** The service is measured (and judged) unless --only picks a baseline. */
const MEASURES_SERVICE = opts.only === '' || opts.only === 'service';
// Distributed, issue 21 restated issue 5's ratio against the floor: bare BullMQ does none of a
// task's Kafka and PostgreSQL work, and the floor itself measures 0.3-0.5 of it on 2 cores, so the
// ratio to bare BullMQ is printed there, not judged (bench/HISTORY.md, "The floor: what the design
// itself costs a task").
const TARGETS = { 'all-in-one': { tasksPerSec: null, ratio: 0.5 }, distributed: { tasksPerSec: 1500, ratio: null, floorRatio: 0.7 } };
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const ITEMS_PER_REQUEST = 1000;
const ENDED = new Set(['completed', 'failed', 'cancelled']);
const log = (...a) => console.error(...a);
const ms = (iso) => (iso ? Date.parse(iso) : NaN);

/** benchmark-worker's own default WORKER_CONCURRENCY, from its build (64 when that cannot be read). */
function workerDefaultConcurrency() {
  try {
    const { BenchmarkWorkerEnv } = require(path.join(c.ROOT, 'apps/benchmark-worker/dist/benchmark-worker.env.js'));
    return Number(new BenchmarkWorkerEnv().WORKER_CONCURRENCY) || 64;
  } catch {
    return 64;
  }
}

/** Jobs the service runs at once: the run's window, and in distributed mode also the worker's concurrency. */
const executing = (mode) => (mode === 'distributed' ? Math.min(opts.concurrency, opts['worker-concurrency']) : opts.concurrency);

/** Deletes every Redis key under `prefix:` (what the service's queue left: finished jobs are kept an hour). */
function dropRedisPrefix(prefix) {
  return require(path.join(c.ROOT, 'libs/testing/dist/redis-prefix.js')).dropRedisPrefix(REDIS_URL, prefix);
}

/** A request that must answer `status`; retried while the service is still coming up (503, 504, connection errors). */
async function call(target, method, urlPath, body, status, { retryForMs = 60000 } = {}) {
  const deadline = Date.now() + retryForMs;
  for (;;) {
    let last;
    try {
      const r = await c.request(target.baseUrl, method, urlPath, {
        headers: target.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: 60000,
      });
      if (r.status === status) return r.json();
      last = `${method} ${urlPath}: ${r.status} ${r.body.slice(0, 300)}`;
      if (![502, 503, 504].includes(r.status)) throw new Error(last);
    } catch (e) {
      if (!/ECONNRE|socket hang up|timeout/.test(e.message) && !e.message.startsWith(`${method} ${urlPath}: 50`)) throw e;
      last = e.message;
    }
    if (Date.now() > deadline) throw new Error(last);
    await c.sleep(500);
  }
}

/** A dataset of `count` items (1000 per request) and a benchmark on it; answers the benchmark's id. */
async function makeBenchmark(target, count, name) {
  const dataset = await call(target, 'POST', '/api/v1/datasets', { name: `${name} ${randomBytes(3).toString('hex')}` }, 201);
  for (let i = 0; i < count; i += ITEMS_PER_REQUEST) {
    const items = Array.from({ length: Math.min(ITEMS_PER_REQUEST, count - i) }, (_, k) => runItem(i + k));
    await call(target, 'POST', `/api/v1/datasets/${dataset.id}/items`, { items }, 201);
  }
  const benchmark = await call(
    target,
    'POST',
    '/api/v1/benchmarks',
    {
      name: `${name} ${randomBytes(3).toString('hex')}`,
      datasetId: dataset.id,
      target: { type: 'dataset' },
      scorers: RUN_SCORERS,
      runner: { concurrency: opts.concurrency, maxAttempts: 3, timeoutMs: 60000 },
    },
    201,
  );
  return benchmark.id;
}

/** Starts a run and polls GET /runs until it ended; answers timings, progress samples and the run. */
async function timeRun(target, benchmarkId, expectTasks) {
  const t0 = performance.now();
  const started = await call(target, 'POST', `/api/v1/benchmarks/${benchmarkId}/start`, undefined, 202, { retryForMs: 0 });
  const acceptedMs = performance.now() - t0;
  if (started.taskCount !== expectTasks) throw new Error(`the run has ${started.taskCount} tasks, not ${expectTasks}`);
  const samples = []; // [ms since start, completed + failed, ms the poll took]
  const deadline = Date.now() + opts.timeout * 1000;
  let run;
  let pollErrors = 0;
  for (;;) {
    const before = performance.now();
    try {
      const page = await call(target, 'GET', `/api/v1/benchmarks/${benchmarkId}/runs?limit=1`, undefined, 200, { retryForMs: 0 });
      const seen = performance.now() - t0;
      run = page.data.find((r) => r.id === started.id);
      if (!run) throw new Error(`run ${started.id} is not the latest run`);
      samples.push([seen, run.counts.completed + run.counts.failed, seen - (before - t0)]);
      if (ENDED.has(run.status)) return { run, seconds: seen / 1000, acceptedMs, samples, pollErrors };
    } catch (e) {
      if (++pollErrors > 20) throw e;
    }
    if (Date.now() > deadline) return { run, seconds: NaN, acceptedMs, samples, pollErrors, timedOut: true };
    await c.sleep(Math.max(0, nextPollMs(samples, expectTasks) - (performance.now() - before)));
  }
}

/** The run's tasks as the tasks route lists them with status=completed (pages of 200), and its summary. */
async function countCompleted(target, benchmarkId, runId) {
  let listed = 0;
  let cursor = null;
  let summary = null;
  do {
    const q = `/api/v1/benchmarks/${benchmarkId}/tasks?runId=${runId}&status=completed&limit=200` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const page = await call(target, 'GET', q, undefined, 200, { retryForMs: 0 });
    listed += page.data.filter((t) => t.status === 'completed' && t.scores.every((s) => s.passed)).length;
    summary = page.summary;
    cursor = page.nextCursor;
  } while (cursor);
  return { listed, summary };
}

/**
 * How long until the next poll: --poll-ms while the run's end is further off than three of
 * those polls, --end-poll-ms from then on. The end is projected at the faster of the last
 * poll's rate and the rate since the first task ended (a dip in one poll's count must not
 * hide an end that is near). Fast too until tasks have begun to end (a short run may end
 * within the first slow poll) and while none ends (the end could come any moment).
 */
function nextPollMs(samples, total) {
  const slow = opts['poll-ms'];
  const fast = Math.min(slow, opts['end-poll-ms']);
  const first = samples.find(([, n]) => n > 0);
  if (samples.length < 2 || !first || first === samples.at(-1)) return fast;
  const rate = ([t0, n0], [t1, n1]) => (n1 - n0) / (t1 - t0);
  const [before, last] = samples.slice(-2);
  const lastRate = rate(before, last);
  if (!(lastRate > 0)) return fast;
  return (total - last[1]) / Math.max(lastRate, rate(first, last)) > 3 * slow ? slow : fast;
}

/** Rate between 10% and 90% of the tasks ended (the steady part of the run), from the poll samples. */
function steadyRate(samples, total) {
  const at = (share) => samples.find(([, n]) => n >= share * total);
  const a = at(0.1);
  const b = at(0.9);
  return a && b && b[0] > a[0] ? (b[1] - a[1]) / ((b[0] - a[0]) / 1000) : NaN;
}

/** Tasks ended in each second of the run (from the poll samples), to see its ramp-up and dips. */
function perSecond(samples) {
  const rates = [];
  let last = [0, 0];
  for (const sample of samples) {
    if (sample[0] - last[0] < 1000) continue;
    rates.push(Math.round((sample[1] - last[1]) / ((sample[0] - last[0]) / 1000)));
    last = sample;
  }
  return rates;
}

/** What a subject does with an error: recorded in `out` (the subject is skipped afterwards) and logged, with `detail()` if it has one. */
function failureOf(out, label, detail = () => '') {
  return (e) => {
    out.failed = e.message;
    log(`   ${label} failed: ${e.message}`);
    const more = detail();
    if (more) log(more);
  };
}

/** A subject's run i: nothing once the subject failed, and its errors go to `failed`, never thrown. */
function guardedRun(out, failed, body) {
  return async (i) => {
    if (out.failed) return;
    try {
      await body(i);
    } catch (e) {
      failed(e);
    }
  };
}

/**
 * Each subject (the service, the bare baseline, the floor) is prepared once (started and
 * warmed up), then measured in turns: turn i runs each subject's run i, the order reversed
 * every other turn, so that every subject meets the machine's spells alike (this shared
 * machine's speed moved the floor by 1,621–2,646 tasks/s within fifteen minutes on
 * 2026-12-02, which decided the ratio when each subject's runs came one after the other).
 * `run(i)` records into `out` and throws nothing (guardedRun): a subject that fails is skipped afterwards.
 */
async function serviceSubject(mode, { kind = 'service', settings = {}, root = c.ROOT } = {}) {
  const prefix = `bench-runs-${randomBytes(4).toString('hex')}`;
  const env = {
    WORKER_CONCURRENCY: String(opts['worker-concurrency']),
    QUOTA_TASKS_PER_RUN: String(Math.max(10000, opts.tasks, opts.warmup)),
    QUOTA_ACTIVE_RUNS: '2',
    ...settings, // what an A/B tries wins over the bench's defaults above, not over its own queue
    QUEUE_PREFIX: prefix,
  };
  log(
    `\n== ${kind} (${mode}): starting` +
      (mode === 'distributed' ? `, queue prefix ${prefix}, WORKER_CONCURRENCY ${env.WORKER_CONCURRENCY}` : '') +
      (kind === 'service' ? '' : `, with ${JSON.stringify(settings)}` + (root === c.ROOT ? '' : `, the build in ${root}`)),
  );
  if (mode === 'distributed') c.onCleanup(() => dropRedisPrefix(prefix));
  const out = { kind, mode, runs: [] };
  let target;
  let benchmarkId;
  const failed = failureOf(out, `${kind} (${mode})`, () => target?.proc?.output().slice(-3000));
  try {
    target = await c.startService(mode, { log, apps: opts.apps, env, root });
    log(`   dataset of ${opts.tasks} items and a benchmark (dataset target, exact_match, concurrency ${opts.concurrency})`);
    const t = performance.now();
    benchmarkId = await makeBenchmark(target, opts.tasks, 'Bench runs');
    log(`   created in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    if (opts.warmup > 0) {
      const warmId = await makeBenchmark(target, opts.warmup, 'Bench warm-up');
      const w = await timeRun(target, warmId, opts.warmup);
      log(`   warm-up: ${opts.warmup} tasks in ${c.fmt(w.seconds, 2)} s (${w.run?.status})`);
    }
  } catch (e) {
    failed(e);
  }
  const run = guardedRun(out, failed, async (i) => {
    const cpu = startCpu();
    const r = await timeRun(target, benchmarkId, opts.tasks);
    const cpuUsed = cpu.stop();
    const run = r.run ?? { counts: {}, scores: {} };
    const counted = await countCompleted(target, benchmarkId, run.id);
    const serverSeconds = (ms(run.finishedAt) - ms(run.createdAt)) / 1000;
    const first = r.samples.find(([, n]) => n > 0);
    const one = {
      status: run.status,
      seconds: r.seconds,
      tasksPerSec: opts.tasks / r.seconds,
      serverSeconds,
      steadyPerSec: steadyRate(r.samples, opts.tasks),
      acceptedMs: r.acceptedMs,
      firstEndedMs: first ? first[0] : NaN,
      counts: run.counts,
      scores: run.scores,
      summary: counted.summary,
      listedCompleted: counted.listed,
      pollErrors: r.pollErrors,
      polls: r.samples.length,
      // The end happened between the last two polls: how closely the time is known.
      endSeenWithinMs: r.samples.length > 1 ? r.samples.at(-1)[0] - r.samples.at(-2)[0] : NaN,
      // [ms since the start, tasks ended, ms the poll took] of the last four polls.
      lastPolls: r.samples.slice(-4).map((sample) => sample.map(Math.round)),
      timedOut: !!r.timedOut,
      cpu: cpuUsed,
    };
    one.ok =
      run.status === 'completed' &&
      run.counts.completed === opts.tasks &&
      run.counts.failed === 0 &&
      counted.summary?.counts?.completed === opts.tasks &&
      counted.listed === opts.tasks &&
      run.scores?.exact_match?.passRate === 1;
    out.runs[i] = one;
    log(
      `   ${kind} run ${i + 1}: ${run.status} in ${c.fmt(r.seconds, 2)} s: ${c.fmt(one.tasksPerSec, 0)} tasks/s ` +
        `(server createdAt→finishedAt ${c.fmt(serverSeconds, 2)} s; 202 after ${c.fmt(r.acceptedMs, 0)} ms; first task ended by ${c.fmt(one.firstEndedMs, 0)} ms; ` +
        `10%→90% at ${c.fmt(one.steadyPerSec, 0)} tasks/s; ${one.polls} polls, the end seen within ${c.fmt(one.endSeenWithinMs, 0)} ms)`,
    );
    log(`     tasks ended per second: ${perSecond(r.samples).join(' ')}`);
    log(`     CPU (% of one core): ${formatCpu(cpuUsed)}`);
    log(
      `     counts ${JSON.stringify(run.counts)}, scores ${JSON.stringify(run.scores)}, summary ${JSON.stringify(counted.summary?.counts)}, listed completed+passed ${counted.listed}`,
    );
  });
  return { out, run, stop: () => target?.stop() };
}

/** Runs one of the bare baselines (`bench/<file>`) for a run of --tasks jobs; answers its RESULT line, parsed. */
async function runBaselineScript(file, env) {
  const proc = c.startProcess(path.basename(file, '.js'), [path.join('bench', file)], {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    REDIS_URL,
    BASELINE_TASKS: String(opts.tasks),
    ...env,
  });
  const { code } = await proc.exited;
  const line = proc
    .output()
    .split('\n')
    .find((l) => l.startsWith('RESULT '));
  if (code !== 0 || !line) throw new Error(`${file} exited ${code}:\n${proc.output().slice(-2000)}`);
  return JSON.parse(line.slice('RESULT '.length));
}

function baselineSubject(mode) {
  const concurrency = executing(mode);
  const prefix = `bench-runs-base-${randomBytes(4).toString('hex')}`;
  log(`\n== baseline for ${mode}: bare BullMQ, ${opts.tasks} jobs, worker concurrency ${concurrency}`);
  c.onCleanup(() => dropRedisPrefix(prefix));
  const out = { kind: 'baseline', mode, concurrency, runs: [] };
  const run = guardedRun(out, failureOf(out, 'baseline'), async (i) => {
    const cpu = startCpu();
    const r = await runBaselineScript('baseline-bullmq.js', { QUEUE_PREFIX: prefix, BASELINE_CONCURRENCY: String(concurrency) });
    r.cpu = cpu.stop();
    r.ok = r.completed === opts.tasks && r.failed === 0 && r.passed === opts.tasks;
    out.runs[i] = r;
    log(
      `   baseline run ${i + 1}: ${r.completed} completed, ${r.failed} failed in ${c.fmt(r.seconds, 2)} s: ${c.fmt(r.tasksPerSec, 0)} tasks/s (all added after ${c.fmt(r.addSeconds, 2)} s)`,
    );
  });
  return { out, run, stop: async () => {} };
}

/** The floor (distributed): bare BullMQ plus each task's event and trace through Kafka into PostgreSQL. */
async function floorSubject() {
  const concurrency = executing('distributed');
  const prefix = `bench-runs-floor-${randomBytes(4).toString('hex')}`;
  log(`\n== floor for distributed: bare BullMQ + Kafka + PostgreSQL, ${opts.tasks} jobs, worker concurrency ${concurrency}`);
  const out = { kind: 'floor', mode: 'distributed', concurrency, runs: [] };
  const failed = failureOf(out, 'floor');
  let broker;
  try {
    broker = await c.startBroker();
    // Up beside the service's broker: each run's CPU is told apart by its JVM's command line.
    nameProcesses(path.join(broker.stateDir, 'server.properties'), 'Kafka broker (floor)');
    if (opts.warmup > 0) {
      // As the service's: one run not measured, on its own database and topics, so that the broker is as warm.
      const db = await c.createDatabase('floor');
      const warmPrefix = `${prefix}-warm`;
      c.onCleanup(() => dropRedisPrefix(warmPrefix));
      const w = await runBaselineScript('baseline-runs-floor.js', {
        KAFKA_BROKERS: broker.brokers,
        DATABASE_URL: db.url,
        QUEUE_PREFIX: warmPrefix,
        BASELINE_CONCURRENCY: String(concurrency),
        BASELINE_TASKS: String(opts.warmup),
      });
      log(`   warm-up: ${opts.warmup} tasks in ${c.fmt(w.seconds, 2)} s`);
    }
  } catch (e) {
    failed(e);
  }
  const run = guardedRun(out, failed, async (i) => {
    // Each run on an empty database (the floor creates its tables) and topics of its own (named after the prefix).
    const db = await c.createDatabase('floor');
    const runPrefix = `${prefix}-${i}`;
    c.onCleanup(() => dropRedisPrefix(runPrefix));
    const cpu = startCpu();
    const r = await runBaselineScript('baseline-runs-floor.js', {
      KAFKA_BROKERS: broker.brokers,
      DATABASE_URL: db.url,
      QUEUE_PREFIX: runPrefix,
      BASELINE_CONCURRENCY: String(concurrency),
    });
    r.cpu = cpu.stop();
    r.ok = !r.timedOut && r.passed === opts.tasks && r.stored.tasks === opts.tasks && r.stored.traces === opts.tasks && r.stored.spans === 2 * opts.tasks;
    out.runs[i] = r;
    log(
      `   floor run ${i + 1}: ${r.stored.tasks} tasks, ${r.stored.traces} traces, ${r.stored.spans} spans stored in ${c.fmt(r.seconds, 2)} s: ${c.fmt(r.tasksPerSec, 0)} tasks/s`,
    );
  });
  return { out, run, stop: async () => {} };
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** The ratios of the turns that measured both sides, and their median (the one judged). */
function turnRatios(turns, key) {
  const ratios = turns.map((turn) => turn[key]).filter((r) => r !== null);
  return { ratios, median: ratios.length ? median(ratios) : null };
}

function report(mode, results) {
  const { service: s, baseline: b, floor: f, turns = [] } = results;
  const sRuns = s?.runs ?? [];
  const bRuns = b?.runs ?? [];
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const sRate = num(median(sRuns.map((r) => r.tasksPerSec)));
  const bRate = num(median(bRuns.map((r) => r.tasksPerSec)));
  const overBaseline = turnRatios(turns, 'overBaseline');
  const overFloor = turnRatios(turns, 'overFloor');
  const ratio = overBaseline.median;
  const okAll = sRuns.length > 0 && sRuns.every((r) => r.ok);
  const t = TARGETS[mode];
  const last = sRuns[sRuns.length - 1] ?? {};
  const rows = [
    {
      figure: `tasks/s, start (202) to run ended${sRuns.length > 1 ? ` (median of ${sRuns.length})` : ''}`,
      service: sRate,
      baseline: bRate,
      ratio,
      target: t.tasksPerSec ? `>= ${t.tasksPerSec}` : '-',
      pass: MEASURES_SERVICE && t.tasksPerSec ? (sRate ?? 0) >= t.tasksPerSec && okAll : null,
    },
    {
      figure: `tasks/s service / baseline${overBaseline.ratios.length > 1 ? `, median of ${overBaseline.ratios.length} turns` : ''}`,
      service: ratio,
      baseline: null,
      ratio,
      target: t.ratio ? `>= ${t.ratio}` : '-',
      pass: opts.only || !t.ratio ? null : ratio !== null && ratio >= t.ratio && okAll,
    },
    { figure: 'start to finish (s)', service: num(median(sRuns.map((r) => r.seconds))), baseline: num(median(bRuns.map((r) => r.seconds))) },
    { figure: 'server createdAt to finishedAt (s)', service: num(median(sRuns.map((r) => r.serverSeconds))), baseline: null },
    { figure: 'tasks/s between 10% and 90% ended', service: num(median(sRuns.map((r) => r.steadyPerSec))), baseline: null },
    { figure: 'start answered 202 after (ms)', service: num(median(sRuns.map((r) => r.acceptedMs))), baseline: null },
    {
      figure: 'tasks completed, score passed',
      service: num(last.listedCompleted),
      baseline: num(bRuns[bRuns.length - 1]?.passed),
      target: `${opts.tasks}`,
      pass: MEASURES_SERVICE ? okAll : null,
    },
    {
      figure: 'tasks failed',
      service: num(last.counts?.failed),
      baseline: num(bRuns[bRuns.length - 1]?.failed),
      target: '0',
      pass: MEASURES_SERVICE ? okAll && last.counts?.failed === 0 : null,
    },
    { figure: 'jobs at once (run window / worker)', service: executing(mode), baseline: b?.concurrency ?? null },
  ];
  const fRuns = f?.runs ?? [];
  if (f) {
    // The floor's own rows: its rate beside the bare baseline's, and the service's beside the floor's.
    const fRate = num(median(fRuns.map((r) => r.tasksPerSec)));
    const fOk = fRuns.length > 0 && fRuns.every((r) => r.ok);
    rows.push(
      {
        figure: 'floor tasks/s (bare BullMQ + Kafka + PostgreSQL; ratio = floor / baseline)',
        service: fRate,
        baseline: bRate,
        target: fOk ? '-' : '(floor incomplete)',
      },
      {
        figure: `service tasks/s beside the floor (ratio = service / floor${overFloor.ratios.length > 1 ? `, median of ${overFloor.ratios.length} turns` : ''})`,
        service: sRate,
        baseline: fRate,
        ratio: overFloor.median,
        target: t.floorRatio ? `>= ${t.floorRatio}` : '-',
        pass: MEASURES_SERVICE && t.floorRatio && overFloor.median !== null ? overFloor.median >= t.floorRatio && okAll : null,
      },
    );
  }
  console.log(
    `\nBenchmark runs, ${mode}: ${opts.tasks} tasks, target dataset, one exact_match scorer, run concurrency ${opts.concurrency}` +
      (mode === 'distributed' ? `, one benchmark-worker with WORKER_CONCURRENCY ${opts['worker-concurrency']}` : '') +
      `; baseline: bare BullMQ on the same Redis, ${b?.concurrency ?? executing(mode)} jobs at once; ratio = service / baseline`,
  );
  if (s?.failed) console.log(`service: FAILED: ${s.failed.split('\n')[0]}`);
  if (b?.failed) console.log(`baseline: FAILED: ${b.failed.split('\n')[0]}`);
  for (const [i, r] of sRuns.entries()) {
    console.log(
      `service run ${i + 1}: ${r.status}, ${c.fmt(r.seconds, 2)} s, ${c.fmt(r.tasksPerSec, 0)} tasks/s, counts ${JSON.stringify(r.counts)}, summary ${JSON.stringify(r.summary?.counts)}`,
    );
  }
  for (const [i, r] of bRuns.entries())
    console.log(`baseline run ${i + 1}: ${r.completed} completed, ${r.failed} failed, ${c.fmt(r.seconds, 2)} s, ${c.fmt(r.tasksPerSec, 0)} tasks/s`);
  if (f?.failed) console.log(`floor: FAILED: ${f.failed.split('\n')[0]}`);
  for (const [i, r] of fRuns.entries()) {
    console.log(
      `floor run ${i + 1}: ${r.stored.tasks} tasks, ${r.stored.traces} traces, ${r.stored.spans} spans stored, ${c.fmt(r.seconds, 2)} s, ${c.fmt(r.tasksPerSec, 0)} tasks/s`,
    );
  }
  const table = c.printTable(`Results, ${mode} (${new Date().toISOString()})`, rows);
  const listed = ({ ratios }) => ratios.map((r) => c.fmt(r, 2)).join(', ');
  if (overBaseline.ratios.length) console.log(`\nservice / baseline in each turn: ${listed(overBaseline)}`);
  if (overFloor.ratios.length) console.log(`service / floor in each turn: ${listed(overFloor)}`);
  const versus = turnRatios(turns, 'versusOverService');
  if (versus.ratios.length) {
    const vRate = num(median((results.versus?.runs ?? []).map((r) => r.tasksPerSec)));
    const what = [opts.versus, opts['versus-root'] && `the build in ${VERSUS_ROOT}`].filter(Boolean).join(', ');
    console.log(`versus (${what}): ${c.fmt(vRate, 0)} tasks/s (median); versus / service in each turn: ${listed(versus)}, median ${c.fmt(versus.median, 2)}`);
  }
  const measured = [
    ['service', sRuns],
    ['baseline', bRuns],
    ['floor', fRuns],
    ['versus', results.versus?.runs ?? []],
  ].flatMap(([kind, runs]) => runs.map((r, i) => ({ name: `${kind} run ${i + 1}`, r })).filter(({ r }) => r.cpu));
  console.log(`\nCPU during each run, ${mode} (% of one core):`);
  for (const { name, r } of measured) console.log(`  ${name}: ${formatCpu(r.cpu)}`);
  console.log(`\nCPU per task, ${mode} (ms, from the shares above and each run's tasks/s):`);
  for (const { name, r } of measured) console.log(`  ${name}: ${formatCpuPerItem(r.cpu, r.tasksPerSec)}`);
  return table;
}

async function main() {
  log(`Benchmark-run throughput: ${opts.tasks} tasks, modes ${MODES.join(', ')}, ${opts.runs} measured run(s) each, in turns`);
  const results = {};
  for (const mode of MODES) {
    const subjects = [];
    try {
      if (MEASURES_SERVICE) subjects.push(await serviceSubject(mode));
      if (VERSUS_ENV) subjects.push(await serviceSubject(mode, { kind: 'versus', settings: VERSUS_ENV, root: VERSUS_ROOT }));
      if (opts.only !== 'service') subjects.push(baselineSubject(mode));
      if (mode === 'distributed' && (opts.only === '' || opts.only === 'floor')) subjects.push(await floorSubject());
      for (let turn = 0; turn < opts.runs; turn++) {
        log(`\n== ${mode}, turn ${turn + 1} of ${opts.runs}`);
        for (const subject of turn % 2 ? [...subjects].reverse() : subjects) await subject.run(turn);
      }
    } finally {
      for (const subject of subjects) await subject.stop();
      await c.cleanupAll(); // brokers, databases, temp dirs and Redis keys of this mode before the next
    }
    results[mode] = Object.fromEntries(subjects.map(({ out }) => [out.kind, { ...out, runs: out.runs.filter(Boolean) }]));
    results[mode].turns = turnsOf(subjects);
  }
  for (const mode of MODES) report(mode, results[mode]);
  console.log(`\nJSON ${JSON.stringify({ tasks: opts.tasks, concurrency: opts.concurrency, workerConcurrency: opts['worker-concurrency'], results })}`);
}

/** Per turn, the service's tasks/s over the baseline's and the floor's, and the versus subject's over the service's (null where one is missing). */
function turnsOf(subjects) {
  const byKind = Object.fromEntries(subjects.map(({ out }) => [out.kind, out.runs]));
  const rate = (kind, i) => byKind[kind]?.[i]?.tasksPerSec ?? null;
  return Array.from({ length: opts.runs }, (_, i) => {
    const over = (top, bottom) => (rate(top, i) !== null && rate(bottom, i) ? rate(top, i) / rate(bottom, i) : null);
    return { overBaseline: over('service', 'baseline'), overFloor: over('service', 'floor'), versusOverService: over('versus', 'service') };
  });
}

main()
  .catch((e) => console.error(`benchmark failed: ${e.stack || e.message}`))
  .finally(async () => {
    await c.cleanupAll();
    process.exit(0);
  });
