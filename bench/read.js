#!/usr/bin/env node
'use strict';
// Trace read benchmark (not a test: it always exits 0 once it ran, and prints MISSED
// next to every target it missed). For the service, then for the bare baseline of the
// same mode, each with its own store:
//   1. seeds --traces traces (default 1,000,000; small: --seed-spans spans each) into one
//      project through POST /api/v1/traces/batch (--batch per call, --seed-clients calls
//      at once), plus one trace of 100 spans, and waits until they are readable;
//   2. measures with --read-connections concurrent clients for --read-duration seconds each,
//      after --read-warmup seconds of the same requests not counted:
//      GET of the 100-span trace; the first list page of 50; and a list page of 50 after
//      paging 10,000 items deep (200 pages of 50 followed by nextCursor, then that cursor
//      requested again and again).
// Usage: node bench/read.js [--mode all-in-one|distributed] [--traces 1000000] [--read-duration 10]
//          [--read-connections 2] [--read-warmup 10] [--seed-clients 4] [--batch 1000] [--seed-spans 1] [--only service|baseline]
//          [--apps a,b,gateway]   (more in bench/README.md)
const { randomBytes } = require('node:crypto');
const c = require('./lib/common');
const { seedTrace, BASE_MS } = require('./lib/seed-trace');
const { startCpu, formatCpu } = require('./lib/cpu');

const opts = c.parseArgs(process.argv.slice(2), {
  mode: 'all-in-one',
  traces: 1000000,
  batch: 1000,
  'seed-clients': 4,
  'seed-spans': 1,
  'read-duration': 10,
  // Not counted: a fresh broker's JVM spends its first ~10-30 s of request-reply compiling
  // (bench/README.md, "Reads, round four"); the figure is the warm service's.
  'read-warmup': 10,
  'read-connections': 2,
  'page-size': 50,
  'deep-items': 10000,
  'ready-timeout': 900,
  only: '',
  apps: '', // distributed: start these apps directly instead of scripts/start-distributed.js
});
if (!['all-in-one', 'distributed'].includes(opts.mode)) throw new Error('--mode is all-in-one or distributed');
const FULL = 1000000;
const TARGET_MS = 20;
const BIG_SPANS = 100;
const log = (...a) => console.error(...a);
/**
 * POSTs `body`, coming back after Retry-After while the service answers 429 or 503 (the
 * distributed gateway does while trace-ingest lags behind), until `deadline`.
 */
async function postPatiently(target, urlPath, body, deadline) {
  for (let waits = 0; ; waits++) {
    const r = await c.request(target.baseUrl, 'POST', urlPath, { headers: target.headers, body, timeoutMs: 120000 });
    if (![429, 503].includes(r.status) || Date.now() > deadline) return { r, waits };
    await c.sleep(1000 * Number(r.headers['retry-after'] || 1));
  }
}

async function seed(target, run) {
  const total = opts.traces;
  const calls = Math.ceil(total / opts.batch);
  let next = 0;
  let accepted = 0;
  let rejected = 0;
  let failedCalls = 0;
  let heldBack = 0;
  let firstError = null;
  const t0 = Date.now();
  let lastLog = t0;
  const worker = async () => {
    while (next < calls) {
      const call = next++;
      const from = call * opts.batch;
      const traces = [];
      for (let i = from; i < Math.min(total, from + opts.batch); i++) traces.push(seedTrace(run, i, opts['seed-spans']));
      const body = JSON.stringify({ traces });
      for (let attempt = 0; ; attempt++) {
        try {
          const { r, waits } = await postPatiently(target, '/api/v1/traces/batch', body, t0 + opts['ready-timeout'] * 1000);
          heldBack += waits;
          if (r.status === 207) {
            const j = r.json();
            accepted += j.accepted;
            rejected += j.rejected;
            if (j.rejected) firstError ??= JSON.stringify(j.items.find((x) => x.result !== 'accepted')).slice(0, 300);
            break;
          }
          firstError ??= `${r.status} ${r.body.slice(0, 300)}`;
          failedCalls++;
          break;
        } catch (e) {
          firstError ??= e.message;
          if (attempt < 3) continue;
          failedCalls++;
          break;
        }
      }
      if (Date.now() - lastLog > 15000) {
        lastLog = Date.now();
        const rate = accepted / ((Date.now() - t0) / 1000);
        log(`   seeded ${accepted} of ${total} (${rate.toFixed(0)} traces/s, about ${((total - accepted) / rate).toFixed(0)} s to go)`);
      }
    }
  };
  await Promise.all(Array.from({ length: opts['seed-clients'] }, worker));
  const seconds = (Date.now() - t0) / 1000;
  return { accepted, rejected, failedCalls, heldBack, firstError, seconds, rate: accepted / seconds };
}

/** Waits until every probe id answers 200 (the distributed store catches up after 207s). */
async function waitReadable(target, ids, timeoutMs) {
  const t0 = Date.now();
  let pendingIds = ids;
  while (pendingIds.length && Date.now() - t0 < timeoutMs) {
    const still = [];
    for (const id of pendingIds) {
      const r = await c.request(target.baseUrl, 'GET', `/api/v1/traces/${encodeURIComponent(id)}`, { headers: target.headers });
      if (r.status !== 200) still.push(id);
    }
    pendingIds = still;
    if (pendingIds.length) await c.sleep(1000);
  }
  return { ms: Date.now() - t0, missing: pendingIds.length };
}

const listPath = (cursor) => `/api/v1/traces?limit=${opts['page-size']}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');

async function runOne(kind) {
  const label = `${kind} (${opts.mode})`;
  log(`\n== ${label}: starting`);
  const target = kind === 'service' ? await c.startService(opts.mode, { log, apps: opts.apps }) : await c.startBaseline(opts.mode, { log });
  const run = randomBytes(3).toString('hex');
  const out = { kind };
  try {
    await c.waitTracesReady(target);
    log(`   seeding ${opts.traces} traces of ${opts['seed-spans']} span(s), ${opts.batch} per batch call, ${opts['seed-clients']} clients`);
    const seedCpu = startCpu();
    const seeded = await seed(target, run);
    out.seedCpu = seedCpu.stop();
    Object.assign(out, { seeded: seeded.accepted, seedRate: seeded.rate, seedSeconds: seeded.seconds });
    log(
      `   seeded ${seeded.accepted} (rejected ${seeded.rejected}, failed calls ${seeded.failedCalls}, held back ${seeded.heldBack}) in ${seeded.seconds.toFixed(1)} s, ` +
        `${seeded.rate.toFixed(0)} traces/s${seeded.firstError ? `; first error: ${seeded.firstError}` : ''}`,
    );

    const bigId = `big-${run}`;
    const big = JSON.stringify(c.traceObject(bigId, BASE_MS + (opts.traces / 2) * 1000 + 1, { spans: BIG_SPANS }));
    const { r: posted } = await postPatiently(target, '/api/v1/traces', big, Date.now() + opts['ready-timeout'] * 1000);
    if (posted.status !== 202) throw new Error(`POST of the ${BIG_SPANS}-span trace: ${posted.status} ${posted.body.slice(0, 300)}`);

    // Readable: the big trace, the newest and oldest seeds, and a sample between.
    const sample = [bigId, `seed-${run}-0`, `seed-${run}-${opts.traces - 1}`];
    for (let k = 0; k < 200; k++) sample.push(`seed-${run}-${Math.floor(Math.random() * opts.traces)}`);
    const ready = await waitReadable(target, sample, opts['ready-timeout'] * 1000);
    out.readyMs = ready.ms;
    log(`   ${sample.length - ready.missing} of ${sample.length} sampled traces readable after ${ready.ms} ms`);
    if (ready.missing) log(`   WARNING: ${ready.missing} sampled traces still not readable`);
    // PostgreSQL here runs without autovacuum: statistics as a deployment's would have them.
    if (opts.mode === 'distributed') {
      await target.analyze();
      log('   ANALYZE done (this PostgreSQL has autovacuum off)');
    }

    // The first answer of each figure is checked in full; later ones by status and length
    // (so the load generator does not spend its time parsing what it already checked).
    const checked = (full) => {
      let length = null;
      return (r) => {
        if (r.status !== 200) return false;
        if (length === null) {
          if (!full(JSON.parse(r.body))) return false;
          length = r.body.length;
          return true;
        }
        return Math.abs(r.body.length - length) < 64;
      };
    };
    const getOk = checked((j) => j.spans?.length === BIG_SPANS);
    const pageOk = () => checked((j) => j.data?.length === opts['page-size']);
    const measure = async (path, check) => {
      const cpu = startCpu();
      const m = await c.measureLatency(() => c.request(target.baseUrl, 'GET', path, { headers: target.headers }), {
        concurrency: opts['read-connections'],
        durationMs: opts['read-duration'] * 1000,
        warmupMs: opts['read-warmup'] * 1000,
        check,
      });
      return { ...m, cpu: cpu.stop() };
    };

    log(`   GET of the ${BIG_SPANS}-span trace (${big.length} bytes in)`);
    out.get = await measure(`/api/v1/traces/${bigId}`, getOk);
    log(`   list first page of ${opts['page-size']}`);
    out.first = await measure(listPath(null), pageOk());

    const pages = Math.ceil(opts['deep-items'] / opts['page-size']);
    log(`   paging ${pages} pages of ${opts['page-size']} deep`);
    let cursor = null;
    let items = 0;
    const walk = [];
    const seen = new Set();
    let repeats = 0;
    for (let p = 0; p < pages; p++) {
      const r = await c.request(target.baseUrl, 'GET', listPath(cursor), { headers: target.headers });
      if (r.status !== 200) throw new Error(`page ${p + 1}: ${r.status} ${r.body.slice(0, 300)}`);
      walk.push(r.ms);
      const page = r.json();
      for (const t of page.data) seen.has(t.id) ? repeats++ : seen.add(t.id);
      items += page.data.length;
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    out.walk = { pages: walk.length, items, repeats, ...c.summarize(walk) };
    log(`   walked ${walk.length} pages, ${items} items (${repeats} repeated), page p50 ${c.fmt(out.walk.p50, 2)} ms, p99 ${c.fmt(out.walk.p99, 2)} ms`);
    if (!cursor) throw new Error(`the list ended after ${items} items, before ${opts['deep-items']}`);
    out.deep = await measure(listPath(cursor), pageOk());
    for (const [name, m] of [
      ['get', out.get],
      ['first page', out.first],
      ['deep page', out.deep],
    ]) {
      log(
        `   ${name}: p50 ${c.fmt(m.p50, 2)} ms, p99 ${c.fmt(m.p99, 2)} ms, ${m.rate.toFixed(0)} req/s, ${m.n} requests, errors ${m.errors}` +
          (m.firstError ? ` (first: ${m.firstError})` : '') +
          `; CPU ${formatCpu(m.cpu)}`,
      );
    }
  } catch (e) {
    out.failed = e.message;
    log(`   ${label} failed: ${e.message}`);
    if (target.proc) log(target.proc.output().slice(-2000));
  } finally {
    await target.stop();
  }
  return out;
}

async function main() {
  if (opts.traces < FULL) {
    console.log(`NOTE: --traces ${opts.traces}: the project holds fewer than the ${FULL} traces the targets are set for.`);
  }
  const results = {};
  for (const kind of ['service', 'baseline']) {
    if (opts.only && opts.only !== kind) continue;
    try {
      results[kind] = await runOne(kind);
    } catch (e) {
      results[kind] = { failed: e.message };
      log(`${kind} could not start: ${e.message}`);
    }
  }
  const s = results.service || {};
  const b = results.baseline || {};
  const v = (r, k, f) => (r[k] && typeof r[k][f] === 'number' && !Number.isNaN(r[k][f]) ? r[k][f] : null);
  const judge = (val, errors) => (opts.only === 'baseline' ? null : val !== null && val <= TARGET_MS && errors === 0);
  const errs = (r, k) => (r[k] ? r[k].errors : null);
  const rows = [
    { figure: 'traces seeded', service: s.seeded ?? null, baseline: b.seeded ?? null, target: `${FULL}`, pass: opts.only === 'baseline' ? null : (s.seeded ?? 0) >= FULL },
    { figure: 'seeding rate (traces/s, batch)', service: s.seedRate ?? null, baseline: b.seedRate ?? null },
    { figure: `get ${BIG_SPANS}-span trace p50 (ms)`, service: v(s, 'get', 'p50'), baseline: v(b, 'get', 'p50') },
    {
      figure: `get ${BIG_SPANS}-span trace p99 (ms)`,
      service: v(s, 'get', 'p99'),
      baseline: v(b, 'get', 'p99'),
      target: `<= ${TARGET_MS}`,
      pass: judge(v(s, 'get', 'p99'), errs(s, 'get')),
    },
    { figure: `get ${BIG_SPANS}-span trace req/s`, service: v(s, 'get', 'rate'), baseline: v(b, 'get', 'rate') },
    { figure: 'list first page p50 (ms)', service: v(s, 'first', 'p50'), baseline: v(b, 'first', 'p50') },
    {
      figure: 'list first page p99 (ms)',
      service: v(s, 'first', 'p99'),
      baseline: v(b, 'first', 'p99'),
      target: `<= ${TARGET_MS}`,
      pass: judge(v(s, 'first', 'p99'), errs(s, 'first')),
    },
    { figure: `list page after ${opts['deep-items']} p50 (ms)`, service: v(s, 'deep', 'p50'), baseline: v(b, 'deep', 'p50') },
    {
      figure: `list page after ${opts['deep-items']} p99 (ms)`,
      service: v(s, 'deep', 'p99'),
      baseline: v(b, 'deep', 'p99'),
      target: `<= ${TARGET_MS}`,
      pass: judge(v(s, 'deep', 'p99'), errs(s, 'deep')),
    },
    { figure: 'walk to the deep page: page p99 (ms)', service: v(s, 'walk', 'p99'), baseline: v(b, 'walk', 'p99') },
    {
      figure: 'walk: items repeated',
      service: v(s, 'walk', 'repeats'),
      baseline: v(b, 'walk', 'repeats'),
      target: '0',
      pass: opts.only === 'baseline' ? null : v(s, 'walk', 'repeats') === 0,
    },
    {
      figure: 'read errors',
      service: s.get ? s.get.errors + s.first.errors + (s.deep?.errors ?? 0) : null,
      baseline: b.get ? b.get.errors + b.first.errors + (b.deep?.errors ?? 0) : null,
      target: '0',
      pass: opts.only === 'baseline' ? null : s.get && s.deep ? s.get.errors + s.first.errors + s.deep.errors === 0 : false,
    },
  ];
  console.log(
    `\nTrace reads, ${opts.mode}: ${opts.traces} seeded traces + one of ${BIG_SPANS} spans in one project; ` +
      `${opts['read-connections']} concurrent clients for ${opts['read-duration']} s per figure, on this machine; ` +
      `ratio = service / baseline (${opts.mode === 'all-in-one' ? 'Fastify + better-sqlite3' : 'Fastify + kafkajs + pg'})`,
  );
  if (s.failed) console.log(`service: FAILED: ${s.failed.split('\n')[0]}`);
  if (b.failed) console.log(`baseline: FAILED: ${b.failed.split('\n')[0]}`);
  c.printTable(`Results (${new Date().toISOString()})`, rows);
  console.log('\nCPU while measured (% of one core):');
  for (const [kind, r] of [
    ['service', s],
    ['baseline', b],
  ]) {
    if (r.seedCpu) console.log(`  ${kind}, seeding: ${formatCpu(r.seedCpu)}`);
    for (const k of ['get', 'first', 'deep']) if (r[k]?.cpu) console.log(`  ${kind}, ${k}: ${formatCpu(r[k].cpu)}`);
  }
  console.log(`\nJSON ${JSON.stringify({ mode: opts.mode, traces: opts.traces, service: s, baseline: b })}`);
}

main()
  .catch((e) => console.error(`benchmark failed: ${e.stack || e.message}`))
  .finally(async () => {
    await c.cleanupAll();
    process.exit(0);
  });
