#!/usr/bin/env node
'use strict';
// Trace read benchmark (not a test: it always exits 0 once it ran, and prints MISSED
// next to every target it missed). The service and the bare baseline of the same mode run
// side by side, each with its own store, and take turns, so that a machine drifting between
// minutes (these are shared) moves both alike rather than one of them:
//   1. seeds --traces traces (default 1,000,000; small: --seed-spans spans each) into one
//      project through POST /api/v1/traces/batch (--batch per call, --seed-clients calls
//      at once), in --rounds parts each, in turn; then one trace of 100 spans, and waits
//      until a sample is readable;
//   2. measures with --read-connections concurrent clients, in --rounds windows of
//      --read-duration seconds each, in turn (the order swapped every round), the first
//      window after --read-warmup seconds of the same requests not counted, later ones 1 s:
//      GET of the 100-span trace; the first list page of 50; and a list page of 50 after
//      paging 10,000 items deep (200 pages of 50 followed by nextCursor, then that cursor
//      requested again and again). A figure's percentiles are over every window's requests.
// All-in-one, a third subject takes its turns in seeding only (--same-work false leaves it
// out): the baseline keeping what the service keeps for the list's filters (its indexes by
// name, user and session, a row per tag; bench/baseline-sqlite.js BASELINE_SERVICE_INDEXES=1).
// The batch target (>= 0.6, issue 26) is judged against it: the bare baseline skips that
// work, which the list filters need (bench/HISTORY.md, "Round eighteen").
// --versus '<JSON object of settings>' adds one more subject, the service with those settings
// (say '{"HEAP_PRETENURING":"true"}'), seeded and read in turn with the others, and prints
// the service against it: an A/B of a setting in one run.
// Usage: node bench/read.js [--mode all-in-one|distributed] [--traces 1000000] [--rounds 3] [--read-duration 10]
//          [--read-connections 2] [--read-warmup 10] [--seed-clients 4] [--batch 1000] [--seed-spans 1] [--only service|baseline]
//          [--apps a,b,gateway] [--same-work true|false] [--versus '{"NAME":"value"}']   (more in bench/README.md)
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
  // The service's and the baseline's windows alternate, this many of each per figure (and
  // seeding in as many parts): a machine that drifts between minutes then moves both alike.
  rounds: 3,
  // Not counted: a fresh broker's JVM spends its first ~10-30 s of request-reply compiling
  // (bench/HISTORY.md, "Reads, round four"); the figure is the warm service's.
  'read-warmup': 10,
  'read-connections': 2,
  'page-size': 50,
  'deep-items': 10000,
  'ready-timeout': 900,
  only: '',
  apps: '', // distributed: start these apps directly instead of scripts/start-distributed.js
  'same-work': true,
  versus: '',
});
if (!['all-in-one', 'distributed'].includes(opts.mode)) throw new Error('--mode is all-in-one or distributed');
const FULL = 1000000;
const TARGET_MS = 20;
const BIG_SPANS = 100;
const BATCH_RATIO_TARGET = 0.6;
const log = (...a) => console.error(...a);
const versusEnv = opts.versus ? JSON.parse(opts.versus) : null;
if (versusEnv && (typeof versusEnv !== 'object' || Array.isArray(versusEnv))) throw new Error('--versus is a JSON object of settings');
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

/** Seeds traces `from` to `to` (exclusive) of the run's `opts.traces`. */
async function seed(target, run, from, to) {
  const total = opts.traces;
  const calls = Math.ceil((to - from) / opts.batch);
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
      const first = from + next++ * opts.batch;
      const traces = [];
      for (let i = first; i < Math.min(to, first + opts.batch); i++) traces.push(seedTrace(run, i, opts['seed-spans']));
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
        log(`   seeded ${from + accepted} of ${total} (${rate.toFixed(0)} traces/s, about ${((to - from - accepted) / rate).toFixed(0)} s to this part's end)`);
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

/** CPU readings of several windows as one: each process's share of a core, weighted by the windows' lengths. */
function weightedCpu(parts) {
  const total = parts.reduce((sum, part) => sum + part.seconds, 0);
  const percent = {};
  for (const { cpu, seconds } of parts) for (const [label, p] of Object.entries(cpu)) percent[label] = (percent[label] ?? 0) + (p * seconds) / total;
  return percent;
}

/** Starts the service or a baseline, with what its figures gather as they go. */
async function start(kind) {
  const label =
    {
      'same-work': `baseline keeping the list filters' indexes (${opts.mode})`,
      versus: `service with ${opts.versus} (${opts.mode})`,
    }[kind] ?? `${kind} (${opts.mode})`;
  log(`\n== ${label}: starting`);
  const target =
    kind === 'service' || kind === 'versus'
      ? await c.startService(opts.mode, { log, apps: opts.apps, env: kind === 'versus' ? versusEnv : {} })
      : await c.startBaseline(opts.mode, { log, env: kind === 'same-work' ? { BASELINE_SERVICE_INDEXES: '1' } : {} });
  await c.waitTracesReady(target);
  return { kind, label, target, run: randomBytes(3).toString('hex'), out: { kind }, seedParts: [], windows: { get: [], first: [], deep: [] } };
}

/** Seeds its part `part` of `parts` of the traces. */
async function seedPart(subject, part, parts) {
  const from = Math.floor((opts.traces * part) / parts);
  const to = Math.floor((opts.traces * (part + 1)) / parts);
  log(
    `   ${subject.label}: seeding traces ${from} to ${to - 1} of ${opts.traces} (${opts['seed-spans']} span(s) each, ${opts.batch} per batch call, ${opts['seed-clients']} clients)`,
  );
  const cpu = startCpu();
  const seeded = await seed(subject.target, subject.run, from, to);
  subject.seedParts.push({ ...seeded, cpu: cpu.stop() });
  log(
    `   seeded ${seeded.accepted} (rejected ${seeded.rejected}, failed calls ${seeded.failedCalls}, held back ${seeded.heldBack}) in ${seeded.seconds.toFixed(1)} s, ` +
      `${seeded.rate.toFixed(0)} traces/s${seeded.firstError ? `; first error: ${seeded.firstError}` : ''}`,
  );
}

/** Its whole seeding's figures, from the parts. */
function summarizeSeeding(subject) {
  const { out, seedParts: parts } = subject;
  const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
  const seeded = parts.reduce((sum, part) => sum + part.accepted, 0);
  Object.assign(out, { seeded, seedRate: seeded / seconds, seedSeconds: seconds, seedCpu: weightedCpu(parts) });
  if (parts.length > 1) out.seedRates = parts.map((part) => part.rate);
}

/** After seeding: the 100-span trace, a sample readable, the cursor 10,000 items deep. */
async function prepareReads(subject) {
  const { target, run, out, label } = subject;

  const bigId = `big-${run}`;
  const big = JSON.stringify(c.traceObject(bigId, BASE_MS + (opts.traces / 2) * 1000 + 1, { spans: BIG_SPANS }));
  const { r: posted } = await postPatiently(target, '/api/v1/traces', big, Date.now() + opts['ready-timeout'] * 1000);
  if (posted.status !== 202) throw new Error(`POST of the ${BIG_SPANS}-span trace: ${posted.status} ${posted.body.slice(0, 300)}`);

  // Readable: the big trace, the newest and oldest seeds, and a sample between.
  const sample = [bigId, `seed-${run}-0`, `seed-${run}-${opts.traces - 1}`];
  for (let k = 0; k < 200; k++) sample.push(`seed-${run}-${Math.floor(Math.random() * opts.traces)}`);
  const ready = await waitReadable(target, sample, opts['ready-timeout'] * 1000);
  out.readyMs = ready.ms;
  log(`   ${label}: ${sample.length - ready.missing} of ${sample.length} sampled traces readable after ${ready.ms} ms`);
  if (ready.missing) log(`   WARNING: ${ready.missing} sampled traces still not readable`);
  // PostgreSQL here runs without autovacuum: statistics as a deployment's would have them.
  if (opts.mode === 'distributed') {
    await target.analyze();
    log('   ANALYZE done (this PostgreSQL has autovacuum off)');
  }

  const pages = Math.ceil(opts['deep-items'] / opts['page-size']);
  log(`   ${label}: paging ${pages} pages of ${opts['page-size']} deep`);
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
  const pageOk = () => checked((j) => j.data?.length === opts['page-size']);
  subject.figures = {
    get: { path: `/api/v1/traces/${bigId}`, check: checked((j) => j.spans?.length === BIG_SPANS), what: `GET of the ${BIG_SPANS}-span trace (${big.length} bytes in)` },
    first: { path: listPath(null), check: pageOk(), what: `list first page of ${opts['page-size']}` },
    deep: { path: listPath(cursor), check: pageOk(), what: `list page of ${opts['page-size']} after ${items} items` },
  };
}

/** One window of a figure: `--read-duration` s after `warmupS` s not counted. */
async function measureWindow(subject, figure, warmupS) {
  const { path, check } = subject.figures[figure];
  const cpu = startCpu();
  const m = await c.measureLatency(() => c.request(subject.target.baseUrl, 'GET', path, { headers: subject.target.headers }), {
    concurrency: opts['read-connections'],
    durationMs: opts['read-duration'] * 1000,
    warmupMs: warmupS * 1000,
    check,
    keepLatencies: true,
  });
  subject.windows[figure].push({ ...m, cpu: cpu.stop(), seconds: opts['read-duration'] });
  log(`   ${subject.label}, ${figure}: p50 ${c.fmt(m.p50, 2)} ms, p99 ${c.fmt(m.p99, 2)} ms, ${m.rate.toFixed(0)} req/s`);
}

/** A figure's windows as one: percentiles of every request, the rate over every window, and each window's rate and p99. */
function pooled(windows) {
  const latencies = windows.flatMap((w) => w.latencies);
  const seconds = windows.reduce((sum, w) => sum + w.seconds, 0);
  return {
    ...c.summarize(latencies),
    rate: latencies.length / seconds,
    errors: windows.reduce((sum, w) => sum + w.errors, 0),
    firstError: windows.find((w) => w.firstError)?.firstError ?? null,
    cpu: weightedCpu(windows),
    windows: windows.map((w) => ({ rate: w.rate, p50: w.p50, p99: w.p99 })),
  };
}

/**
 * Both subjects running side by side, their work alternated: seeding in `--rounds` parts
 * each, then each figure in `--rounds` windows each, the order swapped every round. A
 * subject that fails is stopped and left out of what follows; its figures say why.
 */
async function measureBoth(kinds) {
  const subjects = [];
  const results = {};
  const fail = async (subject, e) => {
    subject.out.failed = e.message;
    log(`   ${subject.label} failed: ${e.message}`);
    if (subject.target.proc) log(subject.target.proc.output().slice(-2000));
    subjects.splice(subjects.indexOf(subject), 1);
    await subject.target.stop();
  };
  for (const kind of kinds) {
    try {
      const subject = await start(kind);
      subjects.push(subject);
      results[kind] = subject.out;
    } catch (e) {
      results[kind] = { failed: e.message };
      log(`${kind} could not start: ${e.message}`);
    }
  }
  const rounds = Math.max(1, Number(opts.rounds));
  const inTurn = (round) => (round % 2 === 0 ? [...subjects] : [...subjects].reverse());
  for (let round = 0; round < rounds; round++) {
    for (const subject of inTurn(round)) await seedPart(subject, round, rounds).catch((e) => fail(subject, e));
  }
  for (const subject of subjects) summarizeSeeding(subject);
  // The same-work baseline's part ends with seeding.
  for (const subject of subjects.filter((x) => x.kind === 'same-work')) {
    subjects.splice(subjects.indexOf(subject), 1);
    await subject.target.stop();
  }
  for (const subject of [...subjects]) await prepareReads(subject).catch((e) => fail(subject, e));
  for (const figure of ['get', 'first', 'deep']) {
    for (const subject of subjects) log(`   ${subject.label}: ${subject.figures[figure].what}`);
    for (let round = 0; round < rounds; round++) {
      // The first window of each warms its subject up (`--read-warmup`); later ones 1 s.
      for (const subject of inTurn(round)) await measureWindow(subject, figure, round === 0 ? opts['read-warmup'] : 1).catch((e) => fail(subject, e));
    }
  }
  for (const subject of subjects) {
    for (const figure of ['get', 'first', 'deep']) subject.out[figure] = pooled(subject.windows[figure]);
    await subject.target.stop();
  }
  return results;
}

async function main() {
  if (opts.traces < FULL) {
    console.log(`NOTE: --traces ${opts.traces}: the project holds fewer than the ${FULL} traces the targets are set for.`);
  }
  const sameWork = opts['same-work'] && opts.mode === 'all-in-one' && opts.only !== 'service';
  const kinds = ['service', 'baseline', ...(sameWork ? ['same-work'] : []), ...(versusEnv ? ['versus'] : [])].filter(
    (kind) => !opts.only || opts.only === kind || kind === 'same-work' || kind === 'versus',
  );
  const results = await measureBoth(kinds);
  const s = results.service || {};
  const b = results.baseline || {};
  const w = results['same-work'] || {};
  const batchRatio = typeof s.seedRate === 'number' && typeof w.seedRate === 'number' ? s.seedRate / w.seedRate : null;
  const v = (r, k, f) => (r[k] && typeof r[k][f] === 'number' && !Number.isNaN(r[k][f]) ? r[k][f] : null);
  const judge = (val, errors) => (opts.only === 'baseline' ? null : val !== null && val <= TARGET_MS && errors === 0);
  const errs = (r, k) => (r[k] ? r[k].errors : null);
  const rows = [
    { figure: 'traces seeded', service: s.seeded ?? null, baseline: b.seeded ?? null, target: `${FULL}`, pass: opts.only === 'baseline' ? null : (s.seeded ?? 0) >= FULL },
    { figure: 'seeding rate (traces/s, batch)', service: s.seedRate ?? null, baseline: b.seedRate ?? null },
    ...(sameWork
      ? [
          {
            figure: "seeding rate: the baseline keeping the list filters' indexes",
            service: s.seedRate ?? null,
            baseline: w.seedRate ?? null,
            target: `ratio >= ${BATCH_RATIO_TARGET}`,
            pass: opts.only === 'baseline' ? null : batchRatio !== null && batchRatio >= BATCH_RATIO_TARGET,
          },
        ]
      : []),
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
      `${opts['read-connections']} concurrent clients, ${opts.rounds} windows of ${opts['read-duration']} s per figure, the service's and the baseline's in turn, on this machine; ` +
      `ratio = service / baseline (${opts.mode === 'all-in-one' ? 'Fastify + better-sqlite3' : 'Fastify + kafkajs + pg'})`,
  );
  if (s.failed) console.log(`service: FAILED: ${s.failed.split('\n')[0]}`);
  if (b.failed) console.log(`baseline: FAILED: ${b.failed.split('\n')[0]}`);
  c.printTable(`Results (${new Date().toISOString()})`, rows);
  console.log('\nCPU while measured (% of one core):');
  for (const [kind, r] of [
    ['service', s],
    ['baseline', b],
    ['same-work baseline', w],
  ]) {
    if (r.seedCpu) console.log(`  ${kind}, seeding: ${formatCpu(r.seedCpu)}`);
    for (const k of ['get', 'first', 'deep']) if (r[k]?.cpu) console.log(`  ${kind}, ${k}: ${formatCpu(r[k].cpu)}`);
  }
  // Window by window: how much of a ratio is the machine moving between windows.
  const byWindow = (r, k) => (r[k]?.windows ?? []).map((w) => `${w.rate.toFixed(0)} (${c.fmt(w.p99, 2)})`).join(', ');
  console.log('\nWindow by window, req/s (p99 ms):');
  for (const k of ['get', 'first', 'deep']) console.log(`  ${k}: service ${byWindow(s, k) || 'n/a'}; baseline ${byWindow(b, k) || 'n/a'}`);
  if (s.seedRates || b.seedRates)
    console.log(
      `Seeding part by part, traces/s: service ${(s.seedRates ?? []).map((r) => r.toFixed(0)).join(', ')}; baseline ${(b.seedRates ?? []).map((r) => r.toFixed(0)).join(', ')}` +
        (w.seedRates ? `; same-work baseline ${w.seedRates.map((r) => r.toFixed(0)).join(', ')}` : ''),
    );
  const x = results.versus;
  if (x) {
    // The A/B: the same rows, the service's default settings against --versus.
    c.printTable(`The service (default settings) against the service with ${opts.versus} (ratio = default / versus)`, [
      { figure: 'seeding rate (traces/s, batch)', service: s.seedRate ?? null, baseline: x.seedRate ?? null },
      ...['get', 'first', 'deep'].flatMap((k) => [
        { figure: `${k}: req/s`, service: v(s, k, 'rate'), baseline: v(x, k, 'rate') },
        { figure: `${k}: p99 (ms)`, service: v(s, k, 'p99'), baseline: v(x, k, 'p99') },
      ]),
    ]);
    for (const k of ['get', 'first', 'deep']) if (x[k]?.cpu) console.log(`  service with ${opts.versus}, ${k}: ${formatCpu(x[k].cpu)}`);
  }
  console.log(`\nJSON ${JSON.stringify({ mode: opts.mode, traces: opts.traces, service: s, baseline: b, sameWorkBaseline: w, versus: x })}`);
}

main()
  .catch((e) => console.error(`benchmark failed: ${e.stack || e.message}`))
  .finally(async () => {
    await c.cleanupAll();
    process.exit(0);
  });
