#!/usr/bin/env node
'use strict';
// CPU per request of the all-in-one process (or, with --mode distributed, of each app's
// process), path by path, at a fixed rate (so batching is alike for each), read from /proc/<pid>/stat; with --profile, a V8 CPU profile of each
// measured window too (bench/lib/profile-preload.js), and the functions that took the most
// self time per request. Not a benchmark with targets: a tool for finding where time goes
// (bench/HISTORY.md, "Where an all-in-one request's time goes").
// --subject baseline measures the bare baseline of the mode instead, under the same loads
// (all-in-one: bench/baseline-sqlite.js, with the BASELINE_* variables of this environment,
// BASELINE_SERVICE_INDEXES=1 for the one keeping the list filters' indexes and tags).
// Usage: node bench/cpu-per-request.js [--mode all-in-one|distributed] [--paths ingest,otlp,get,list,deep,batch,runs] [--rate 300] [--duration 15]
//          [--ids otel|sequential] [--profile [--keep-profiles]] [--top 25] [--connections 8] [--subject service|baseline] [--batch-traces 100]
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const c = require('./lib/common');
const { otlpBodyFactory } = require('./lib/otlp-body');

const opts = c.parseArgs(process.argv.slice(2), {
  mode: 'all-in-one',
  paths: 'ingest,otlp,get,list',
  rate: 300,
  duration: 15,
  ids: 'otel',
  profile: false,
  'keep-profiles': false,
  top: 25,
  connections: 8, // autocannon's; more to saturate the distributed mode
  subject: 'service',
  'batch-traces': 100, // one-span traces per batch call (bench:read seeds 1,000 a call)
});
if (!['service', 'baseline'].includes(opts.subject)) throw new Error('--subject is service or baseline');
// The profiler's preload and its SIGUSR2 are the service's (a baseline would die of the signal).
if (opts.subject === 'baseline' && opts.profile) throw new Error('--profile measures the service only');
const log = (...a) => console.error(...a);
// --keep-profiles leaves the profiles (for a diff of two paths, say); they are removed otherwise.
const profileDir = !opts.profile ? null : opts['keep-profiles'] ? fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'cinetrace-profiles-')) : c.tempDir('cinetrace-profiles-');
if (opts.profile) {
  process.env.BENCH_NODE_OPTIONS = `--require ${path.join(__dirname, 'lib/profile-preload.js')}`;
  process.env.BENCH_PROFILE_DIR = profileDir;
}

const ticksOf = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (10 ms)
};

async function main() {
  const target =
    opts.subject === 'baseline' ? await c.startBaseline(opts.mode, { log }) : await c.startService(opts.mode, { log, env: opts.profile ? { BENCH_PROFILE_DIR: profileDir } : {} });
  const apps = opts.subject === 'baseline' ? [{ name: target.proc.name, pid: target.proc.pid }] : appProcesses(target);
  log(`measuring ${apps.map((a) => `${a.name} (${a.pid})`).join(', ')}`);
  const makeTrace = c.traceBodyFactory({ spans: 10 });
  const otlp = otlpBodyFactory({ spans: 10 });
  let n = 0;
  const traceId = () => (opts.ids === 'otel' ? randomBytes(16).toString('hex') : `cpu-${(n++).toString(36)}`);
  // What the reads read: one 100-span trace, and 300 small traces for the list.
  const bigId = `big-${randomBytes(4).toString('hex')}`;
  const big = c.traceBodyFactory({ spans: 100 });
  await c.request(target.baseUrl, 'POST', '/api/v1/traces', { headers: { ...target.headers, prefer: 'wait' }, body: big(bigId, Date.now()) });
  const small = c.traceBodyFactory({ spans: 2 });
  for (let i = 0; i < 300; i++) await c.request(target.baseUrl, 'POST', '/api/v1/traces', { headers: target.headers, body: small(`small-${i}`, Date.now()) });

  const seedTrace = (id) => {
    const start = Date.now();
    return {
      id,
      name: 'render',
      status: 'ok',
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 500).toISOString(),
      metadata: { batch: 1 },
      tags: ['seed'],
      userId: `user-${n % 100}`,
      spans: [
        {
          id: 's0',
          name: 'step 0',
          kind: 'llm',
          status: 'ok',
          startTime: new Date(start).toISOString(),
          endTime: new Date(start + 9).toISOString(),
          model: 'video-model-xl',
          usage: { inputTokens: 100, outputTokens: 20 },
          input: { prompt: 'a red kite over a grey sea, slow pan' },
        },
      ],
    };
  };
  // A page deep in the list, as bench:read's deep page is: the cursor after 250 of the 300 small traces.
  let deepCursor = '';
  for (let page = 0; page < 5; page++) {
    const r = await c.request(target.baseUrl, 'GET', `/api/v1/traces?limit=50${deepCursor ? `&cursor=${encodeURIComponent(deepCursor)}` : ''}`, { headers: target.headers });
    deepCursor = r.json().nextCursor;
  }
  // A benchmark with one ended run of a few tasks: its run list, as bench:runs and the console's run page poll it.
  const benchmarkId = opts.paths.split(',').includes('runs') ? await benchmarkWithARun(target) : '';
  const PATHS = {
    runs: { method: 'GET', path: `/api/v1/benchmarks/${benchmarkId}/runs?limit=1` },
    ingest: { method: 'POST', path: '/api/v1/traces', type: 'application/json', body: () => makeTrace(traceId(), Date.now()) },
    otlp: { method: 'POST', path: '/v1/traces', type: 'application/x-protobuf', body: () => otlp().body },
    get: { method: 'GET', path: `/api/v1/traces/${bigId}` },
    list: { method: 'GET', path: '/api/v1/traces?limit=50' },
    deep: { method: 'GET', path: `/api/v1/traces?limit=50&cursor=${encodeURIComponent(deepCursor)}` },
    // --batch-traces one-span traces a call, as bench:read seeds (its --rate is calls a second: per trace, divide by that).
    batch: {
      method: 'POST',
      path: '/api/v1/traces/batch',
      type: 'application/json',
      body: () => JSON.stringify({ traces: Array.from({ length: opts['batch-traces'] }, () => seedTrace(traceId())) }),
    },
  };
  const rows = [];
  for (const name of String(opts.paths).split(',')) {
    const p = PATHS[name];
    if (!p) throw new Error(`--paths: ${name} is not one of ${Object.keys(PATHS).join(', ')}`);
    const request = { method: p.method, path: p.path, headers: { ...target.headers, ...(p.type ? { 'content-type': p.type } : {}) } };
    if (p.body) request.setupRequest = (req) => ({ ...req, body: p.body() });
    const run = (duration, overallRate) =>
      autocannon({ url: target.baseUrl, connections: opts.connections, duration, ...(overallRate ? { overallRate } : {}), requests: [request] });
    await run(3, 0); // warm-up
    const before = apps.map((a) => ticksOf(a.pid));
    if (opts.profile) for (const a of apps) process.kill(a.pid, 'SIGUSR2');
    const result = await run(opts.duration, opts.rate);
    if (opts.profile) for (const a of apps) process.kill(a.pid, 'SIGUSR2');
    // Distributed: what is still on its way to the store when the load stops is counted with its CPU.
    if (opts.mode === 'distributed') await c.sleep(2000);
    const perApp = apps.map((a, i) => ({ name: a.name, pid: a.pid, cpuMs: ((ticksOf(a.pid) - before[i]) * 10) / result.requests.total }));
    const busy = perApp.filter((a) => a.cpuMs >= 0.005);
    rows.push({ name, p50: result.latency.p50, p99: result.latency.p99, perApp: busy });
    log(
      `${name}: ${result.requests.total} requests, ${result.non2xx} not 2xx, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ` +
        `ms of CPU each: ${busy.map((a) => `${a.name} ${a.cpuMs.toFixed(3)}`).join(', ')}`,
    );
    if (opts.profile) {
      await c.sleep(500);
      for (const a of busy) {
        const file = fs
          .readdirSync(profileDir)
          .filter((f) => f.startsWith(`${a.pid}-`))
          .sort((x, y) => fs.statSync(path.join(profileDir, y)).mtimeMs - fs.statSync(path.join(profileDir, x)).mtimeMs)[0];
        if (file) printTop(path.join(profileDir, file), result.requests.total, a.name);
      }
    }
  }
  c.printTable(
    `ms of CPU per request (${opts.mode}; ${opts.rate} requests/s offered, ${opts.duration} s each)`,
    rows.flatMap((r) => r.perApp.map((a) => ({ figure: `${r.name}: ${a.name} (p50 ${r.p50} / p99 ${r.p99} ms)`, service: Number(a.cpuMs.toFixed(3)), baseline: null }))),
  );
  if (profileDir) console.log(`profiles: ${profileDir}`);
  await target.stop();
}

/** A benchmark of ten dataset items, run once to its end; answers its id. */
async function benchmarkWithARun(target) {
  const { runItem, RUN_SCORERS } = require('./lib/run-items');
  const call = (method, urlPath, body, status) => c.expectJson(target.baseUrl, method, urlPath, { headers: target.headers, body, status });
  const dataset = await call('POST', '/api/v1/datasets', { name: `cpu ${randomBytes(3).toString('hex')}` }, 201);
  await call('POST', `/api/v1/datasets/${dataset.id}/items`, { items: Array.from({ length: 10 }, (_, i) => runItem(i)) }, 201);
  const benchmark = await call(
    'POST',
    '/api/v1/benchmarks',
    { name: `cpu ${randomBytes(3).toString('hex')}`, datasetId: dataset.id, target: { type: 'dataset' }, scorers: RUN_SCORERS },
    201,
  );
  await call('POST', `/api/v1/benchmarks/${benchmark.id}/start`, undefined, 202);
  for (let i = 0; i < 600; i++) {
    const page = await call('GET', `/api/v1/benchmarks/${benchmark.id}/runs?limit=1`, undefined, 200);
    if (['completed', 'failed', 'cancelled'].includes(page.data[0]?.status)) return benchmark.id;
    await c.sleep(100);
  }
  throw new Error('the run did not end within 60 s');
}

/** The service's app processes (all-in-one: the one), found by their command line and this run's key. */
function appProcesses(target) {
  if (opts.mode === 'all-in-one') return [{ name: 'all-in-one', pid: target.proc.pid }];
  const key = target.headers.authorization.split(' ')[1];
  const apps = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const main = fs
        .readFileSync(`/proc/${entry}/cmdline`, 'utf8')
        .split('\0')
        .map((arg) => /apps\/([a-z-]+)\/dist\/main\.js$/.exec(arg))
        .find(Boolean);
      if (main && fs.readFileSync(`/proc/${entry}/environ`, 'utf8').includes(key)) apps.push({ name: main[1], pid: Number(entry) });
    } catch {
      // a process that ended, or not ours
    }
  }
  return apps;
}

/** The functions with the most self time, in µs per request. */
function printTop(file, requests, app) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const samples = new Map();
  for (const id of profile.samples) samples.set(id, (samples.get(id) || 0) + 1);
  const usPerSample = (profile.endTime - profile.startTime) / profile.samples.length;
  const self = new Map();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
    self.set(key, (self.get(key) || 0) + (samples.get(node.id) || 0) * usPerSample);
  }
  const busy = [...self].filter(([k]) => !k.startsWith('(idle)'));
  console.log(`  ${app}, ${file}: ${(busy.reduce((s, [, v]) => s + v, 0) / requests).toFixed(0)} µs busy per request; most self time:`);
  for (const [key, us] of busy.sort((a, b) => b[1] - a[1]).slice(0, Number(opts.top))) console.log(`  ${(us / requests).toFixed(1).padStart(8)} µs  ${key}`);
}

main()
  .catch((e) => console.error(`failed: ${e.stack || e.message}`))
  .finally(async () => {
    await c.cleanupAll();
    process.exit(0);
  });
