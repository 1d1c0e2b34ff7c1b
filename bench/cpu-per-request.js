#!/usr/bin/env node
'use strict';
// CPU per request of the all-in-one process, path by path, at a fixed rate (so batching is
// alike for each), read from /proc/<pid>/stat; with --profile, a V8 CPU profile of each
// measured window too (bench/lib/profile-preload.js), and the functions that took the most
// self time per request. Not a benchmark with targets: a tool for finding where time goes
// (bench/README.md, "Where an all-in-one request's time goes").
// Usage: node bench/cpu-per-request.js [--paths ingest,otlp,get,list] [--rate 300] [--duration 15]
//          [--ids otel|sequential] [--profile] [--top 25]
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const c = require('./lib/common');
const { otlpBodyFactory } = require('./lib/otlp-body');

const opts = c.parseArgs(process.argv.slice(2), { paths: 'ingest,otlp,get,list', rate: 300, duration: 15, ids: 'otel', profile: false, top: 25 });
const log = (...a) => console.error(...a);
const profileDir = opts.profile ? c.tempDir('cinetrace-profiles-') : null;
if (opts.profile) {
  process.env.BENCH_NODE_OPTIONS = `--require ${path.join(__dirname, 'lib/profile-preload.js')}`;
  process.env.BENCH_PROFILE_DIR = profileDir;
}

const ticksOf = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (10 ms)
};

async function main() {
  const target = await c.startService('all-in-one', { log, env: opts.profile ? { BENCH_PROFILE_DIR: profileDir } : {} });
  const pid = target.proc.pid;
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

  const PATHS = {
    ingest: { method: 'POST', path: '/api/v1/traces', type: 'application/json', body: () => makeTrace(traceId(), Date.now()) },
    otlp: { method: 'POST', path: '/v1/traces', type: 'application/x-protobuf', body: () => otlp().body },
    get: { method: 'GET', path: `/api/v1/traces/${bigId}` },
    list: { method: 'GET', path: '/api/v1/traces?limit=50' },
  };
  const rows = [];
  for (const name of String(opts.paths).split(',')) {
    const p = PATHS[name];
    if (!p) throw new Error(`--paths: ${name} is not one of ${Object.keys(PATHS).join(', ')}`);
    const request = { method: p.method, path: p.path, headers: { ...target.headers, ...(p.type ? { 'content-type': p.type } : {}) } };
    if (p.body) request.setupRequest = (req) => ({ ...req, body: p.body() });
    const run = (duration, overallRate) => autocannon({ url: target.baseUrl, connections: 8, duration, ...(overallRate ? { overallRate } : {}), requests: [request] });
    await run(3, 0); // warm-up
    const before = ticksOf(pid);
    if (opts.profile) process.kill(pid, 'SIGUSR2');
    const result = await run(opts.duration, opts.rate);
    if (opts.profile) process.kill(pid, 'SIGUSR2');
    const cpuMs = ((ticksOf(pid) - before) * 10) / result.requests.total;
    rows.push({ name, requests: result.requests.total, non2xx: result.non2xx, p50: result.latency.p50, p99: result.latency.p99, cpuMs });
    log(`${name}: ${result.requests.total} requests, ${result.non2xx} not 2xx, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${cpuMs.toFixed(3)} ms CPU each`);
    if (opts.profile) {
      await c.sleep(500);
      const file = fs
        .readdirSync(profileDir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort((a, b) => fs.statSync(path.join(profileDir, b)).mtimeMs - fs.statSync(path.join(profileDir, a)).mtimeMs)[0];
      if (file) printTop(path.join(profileDir, file), result.requests.total);
    }
  }
  c.printTable(
    `CPU of the all-in-one process per request (${opts.rate} requests/s offered, ${opts.duration} s each)`,
    rows.map((r) => ({ figure: `${r.name} (p50 ${r.p50} / p99 ${r.p99} ms)`, service: Number(r.cpuMs.toFixed(3)), baseline: null })),
  );
  if (profileDir) console.log(`profiles: ${profileDir}`);
  await target.stop();
}

/** The functions with the most self time, in µs per request. */
function printTop(file, requests) {
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
  console.log(`  ${file}: ${(busy.reduce((s, [, v]) => s + v, 0) / requests).toFixed(0)} µs busy per request; most self time:`);
  for (const [key, us] of busy.sort((a, b) => b[1] - a[1]).slice(0, Number(opts.top))) console.log(`  ${(us / requests).toFixed(1).padStart(8)} µs  ${key}`);
}

main()
  .catch((e) => console.error(`failed: ${e.stack || e.message}`))
  .finally(async () => {
    await c.cleanupAll();
    process.exit(0);
  });
