#!/usr/bin/env node
'use strict';
// Trace ingest benchmark (not a test: it always exits 0 once it ran, and prints MISSED
// next to every target it missed). For the service, then for the bare baseline of the
// same mode, on this machine, with the load generator in this process:
//   1. throughput: autocannon POSTs traces of 10 spans (~8 KB), each with a unique id,
//      for --duration seconds over --connections connections;
//   2. durability: every acknowledged (202) trace is read back (list, then GET of any not
//      listed) and its spans counted; distributed, first the time until the consumer group's
//      committed offsets reach the topic's end (all stored), which the listing's own time hides;
//   3. ingest-to-readable delay: a background load at half the service's measured rate,
//      plus probe traces sent at --probe-rate per second, each polled with GET from its 202
//      until all its spans are visible.
//   With --format otlp, the service's throughput phase runs on the JSON route and then on
//   OTLP/HTTP protobuf (POST /v1/traces, the same traces as an SDK exports them: bench/lib/otlp-body.js),
//   each counted back, for --otlp-rounds rounds (2), the order swapped each round; the median of
//   the rounds' OTLP / JSON ratios must reach 1. Both routes then send OTel's
//   random 32-hex trace ids (--ids otel), since where a new id lands in the index costs SQLite.
// Usage: node bench/ingest.js [--mode all-in-one|distributed] [--duration 60] [--connections 32|64] [--rate 0]
//          [--delay-duration 20] [--probe-rate 50|10] [--only service|baseline] [--apps a,b,gateway] [--format json|otlp]
//          [--ids sequential|otel] [--otlp-rounds 2] [--turns 3] [--turn-seconds 10]
//   All-in-one, unless --only or --rate: the group-commit ratio is then judged in turns, the
//   service and the group-commit baseline started again side by side and loaded one after the
//   other for --turn-seconds, --turns times, the order swapped every turn (median of the turns).
// (more in bench/README.md)
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const c = require('./lib/common');
const { waitGroupCaughtUp } = require('./lib/group-lag');
const { startCpu, formatCpu } = require('./lib/cpu');
const { otlpBodyFactory } = require('./lib/otlp-body');
const { rssMb, sampleRss } = require('./lib/rss');

const opts = c.parseArgs(process.argv.slice(2), {
  mode: 'all-in-one',
  duration: 60,
  connections: 0, // 0: 32 all-in-one, 64 distributed
  'delay-duration': 20,
  // 0: 50 all-in-one, 10 distributed. Each probe GETs every 10-50 ms until it sees its trace; 50
  // probes a second there would ask more of the request-reply path through the mock broker
  // (~150-180 a second) than it serves, and measure the GETs' queue instead of the store.
  'probe-rate': 0,
  'poll-ms': 0, // 0: 2 ms all-in-one, 10 ms distributed (each GET there is a request-reply over Kafka)
  // Seconds of light load before measuring (per route with --format otlp); by default 3 all-in-one, 10 distributed,
  // where a fresh broker's JIT compiles through the first seconds (bench/README, "Reads, round four").
  warmup: -1,
  only: '',
  apps: '', // distributed: start these apps directly instead of scripts/start-distributed.js
  spans: 10,
  // Traces/s offered in the throughput phase (0: as fast as the service answers). A target's
  // rate shows it sustained: unbounded, the load runs past trace-ingest's pace and the lag bound
  // answers 503 (backpressure); the default run measures that ceiling.
  rate: 0,
  format: 'json', // otlp: the service's throughput also over OTLP/HTTP protobuf, beside the JSON route
  // Trace ids of the JSON route: sequential (`<run>-<n>`, each next to the last in the index) or
  // otel (32 random hex digits, as OpenTelemetry SDKs make them). Default: otel with --format otlp,
  // so that both routes store the same traces, else sequential.
  ids: '',
  // With --format otlp: rounds of a JSON and an OTLP phase, their order swapped each round; the
  // OTLP / JSON ratio reported is the median of the rounds'.
  'otlp-rounds': 2,
  // All-in-one: seconds the service idles after it is ready before its resident memory is read (RSS at rest).
  'rest-seconds': 10,
  // All-in-one: turns of the service against the group-commit baseline, side by side (0: none), and each one's seconds.
  turns: 3,
  'turn-seconds': 10,
});
if (!['all-in-one', 'distributed'].includes(opts.mode)) throw new Error('--mode is all-in-one or distributed');
if (!['json', 'otlp'].includes(opts.format)) throw new Error('--format is json or otlp');
if (!opts.ids) opts.ids = opts.format === 'otlp' ? 'otel' : 'sequential';
if (!['sequential', 'otel'].includes(opts.ids)) throw new Error('--ids is sequential or otel');
if (opts.warmup < 0) opts.warmup = opts.mode === 'distributed' ? 10 : 3;
if (!opts.connections) opts.connections = opts.mode === 'distributed' ? 64 : 32;
const pollMs = opts['poll-ms'] || (opts.mode === 'distributed' ? 10 : 2);
if (!opts['probe-rate']) opts['probe-rate'] = opts.mode === 'distributed' ? 10 : 50;
const TARGETS = {
  'all-in-one': { spansPerSec: 20000, delayP99: 50, ratio: 0.5 },
  distributed: { spansPerSec: 10000, delayP99: 250, ratio: 0.7 },
}[opts.mode];
const SPANS = opts.spans;
const makeBody = c.traceBodyFactory({ spans: SPANS });
const log = (...a) => console.error(...a);

/** How each route takes a trace: its path, body type, a new body (with its trace id), and the status that acknowledges it. */
const ROUTES = {
  json: {
    path: '/api/v1/traces',
    contentType: 'application/json',
    acknowledged: 202,
    next: (prefix, n) => {
      const id = opts.ids === 'otel' ? randomBytes(16).toString('hex') : `${prefix}-${n.toString(36)}`;
      return { id, body: makeBody(id, Date.now()) };
    },
  },
  otlp: {
    path: '/v1/traces',
    contentType: 'application/x-protobuf',
    acknowledged: 200,
    next: (
      (make) => () =>
        make()
    )(otlpBodyFactory({ spans: SPANS })),
  },
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** autocannon POSTing unique traces to `route`; answers the result plus the acknowledged ids and statuses. */
async function load(target, { duration, connections, overallRate, prefix, route = 'json' }) {
  const { path, contentType, acknowledged, next } = ROUTES[route];
  const acked = [];
  const statuses = {};
  let n = 0;
  const result = await autocannon({
    url: target.baseUrl,
    connections,
    duration,
    overallRate,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path,
        headers: { ...target.headers, 'content-type': contentType },
        setupRequest(req, context) {
          const { id, body } = next(prefix, n++);
          context.id = id;
          req.body = body;
          return req;
        },
        onResponse(status, body, context) {
          statuses[status] = (statuses[status] || 0) + 1;
          if (status === acknowledged) acked.push(context.id);
        },
      },
    ],
  });
  return { result, acked, statuses: relabel(statuses, acknowledged) };
}

/** Statuses with the acknowledging one counted as 202, so both routes' counts read alike. */
const relabel = (statuses, acknowledged) => Object.fromEntries(Object.entries(statuses).map(([status, count]) => [status === String(acknowledged) ? '202' : status, count]));

const non202Of = (statuses) => Object.entries(statuses).reduce((k, [s, v]) => k + (s === '202' ? 0 : v), 0);

/** What a load phase's answers add up to: acknowledged traces and spans a second (autocannon's measured seconds), and every answer that was not an acknowledgement. */
const throughputOf = ({ result, acked, statuses }) => ({
  tracesPerSec: acked.length / result.duration,
  spansPerSec: (acked.length * SPANS) / result.duration,
  errors: result.errors + result.timeouts + non202Of(statuses),
});

/** Every acknowledged id read back; answers stored span count and how long until all were readable. */
async function countStored(target, acked, { settleMs }) {
  const t0 = Date.now();
  const want = new Set(acked);
  let listed = new Map();
  let listError = null;
  let lastSize = -1;
  let lastProgress = Date.now();
  // Distributed storage may lag the 202s: list until every id shows or no progress for settleMs.
  for (;;) {
    try {
      listed = await c.listAll(target);
    } catch (e) {
      listError = e.message;
      break;
    }
    const found = acked.reduce((k, id) => k + (listed.get(id) === SPANS ? 1 : 0), 0);
    if (found === want.size) break;
    if (found !== lastSize) {
      lastSize = found;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > settleMs) break;
    await c.sleep(500);
  }
  const catchUpMs = Date.now() - t0;
  // Any not listed with all its spans: GET it (the list may be wrong; the GET is the truth).
  const toGet = acked.filter((id) => listed.get(id) !== SPANS);
  let stored = 0;
  for (const id of acked) if (listed.get(id) === SPANS) stored += SPANS;
  let getErrors = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < toGet.length) {
        const id = toGet[next++];
        try {
          const r = await c.request(target.baseUrl, 'GET', `/api/v1/traces/${encodeURIComponent(id)}`, { headers: target.headers });
          if (r.status === 200) stored += Math.min(SPANS, r.json().spans?.length ?? 0);
          else if (r.status !== 404) getErrors++;
        } catch {
          getErrors++;
        }
      }
    }),
  );
  return { stored, catchUpMs, listError, fetchedOneByOne: toGet.length, getErrors };
}

/** Probe traces at `rate`/s for `durationMs`: each POSTed, then GET-polled until all spans show. */
async function probeDelays(target, { rate, durationMs, prefix }) {
  const delays = [];
  let errors = 0;
  let neverVisible = 0;
  let firstError = null;
  const probes = [];
  const one = async (i) => {
    const id = `${prefix}-${i}`;
    try {
      const r = await c.request(target.baseUrl, 'POST', '/api/v1/traces', { headers: target.headers, body: makeBody(id, Date.now()) });
      if (r.status !== 202) {
        errors++;
        firstError ??= `POST ${r.status} ${r.body.slice(0, 200)}`;
        return;
      }
      const acked = process.hrtime.bigint();
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline) {
        const g = await c.request(target.baseUrl, 'GET', `/api/v1/traces/${id}`, { headers: target.headers });
        if (g.status === 200 && g.json().spans?.length === SPANS) {
          delays.push(Number(process.hrtime.bigint() - acked) / 1e6);
          return;
        }
        if (g.status !== 200 && g.status !== 404) {
          errors++;
          firstError ??= `GET ${g.status} ${g.body.slice(0, 200)}`;
          return;
        }
        // Poll every poll-ms while young, then every tenth of the time waited (at most
        // 50 ms): the figure keeps ~10% resolution and slow stores are not flooded by GETs.
        const waited = Number(process.hrtime.bigint() - acked) / 1e6;
        await c.sleep(Math.min(50, Math.max(pollMs, waited / 10)));
      }
      neverVisible++;
    } catch (e) {
      errors++;
      firstError ??= e.message;
    }
  };
  const start = Date.now();
  for (let i = 0; Date.now() - start < durationMs; i++) {
    probes.push(one(i));
    const due = start + ((i + 1) * 1000) / rate;
    await c.sleep(Math.max(0, due - Date.now()));
  }
  await Promise.all(probes);
  return { ...c.summarize(delays), errors, neverVisible, firstError };
}

/** A throughput phase on one route (json or otlp), then every acknowledged span counted back. */
async function routeThroughput(target, route, prefix) {
  const name = route === 'otlp' ? 'OTLP' : 'JSON';
  log(
    `   ${name} throughput: ${opts.duration} s, ${opts.connections} connections, POST ${ROUTES[route].path}, ${SPANS}-span traces of ${ROUTES[route].next(prefix, 0).body.length} bytes`,
  );
  const cpu = startCpu();
  const loaded = await load(target, { duration: opts.duration, connections: opts.connections, overallRate: opts.rate || undefined, route, prefix });
  const { result, acked, statuses } = loaded;
  const phase = {
    cpu: cpu.stop(),
    ...throughputOf(loaded),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    acknowledgedSpans: acked.length * SPANS,
  };
  log(
    `   ${name}: ${phase.tracesPerSec.toFixed(0)} traces/s, ${phase.spansPerSec.toFixed(0)} spans/s, p50 ${phase.p50} ms, p99 ${phase.p99} ms, errors ${phase.errors} ` +
      `(statuses ${JSON.stringify(statuses)}); CPU ${formatCpu(phase.cpu)}`,
  );
  const counted = await countStored(target, acked, { settleMs: opts.mode === 'distributed' ? 30000 : 5000 });
  phase.storedSpans = counted.stored;
  log(`   ${name}: stored ${counted.stored} of ${phase.acknowledgedSpans} acknowledged spans (all listed after ${counted.catchUpMs} ms)`);
  return phase;
}

/**
 * The rounds after the first, each a JSON phase and an OTLP phase, the order swapped every
 * round (JSON, OTLP | OTLP, JSON | …): what drifts during a run (a JIT warming, tables
 * growing, the shared machine's speed) then favours neither route. Answers each round's
 * spans/s on both routes.
 */
async function moreOtlpRounds(target, run) {
  const rounds = [];
  for (let k = 2; k <= opts['otlp-rounds']; k++) {
    log(`   round ${k} of ${opts['otlp-rounds']}`);
    const order = k % 2 === 0 ? ['otlp', 'json'] : ['json', 'otlp'];
    const round = {};
    for (const route of order) round[route] = await routeThroughput(target, route, `r${k}-${run}`);
    rounds.push(round);
  }
  return rounds;
}

/**
 * The group-commit ratio in turns (all-in-one): the service and the group-commit baseline
 * started again side by side, each loaded for --turn-seconds in turn, --turns times, the
 * order swapped every turn. Measured one after the other, minutes apart, that ratio read
 * 0.44–0.75 in one morning as the shared machine's speed moved; in turns both sides meet the
 * same spells. Answers each turn's spans/s of both and their ratio.
 */
async function groupCommitTurns() {
  log(`\n== group-commit ratio in turns: the service and the group-commit baseline side by side, ${opts.turns} turns of ${opts['turn-seconds']} s each`);
  const run = randomBytes(4).toString('hex');
  const sides = {};
  const turns = [];
  try {
    sides.service = await c.startService('all-in-one', { log });
    sides.group = await c.startBaseline('all-in-one', { log, groupCommit: true });
    for (const [name, target] of Object.entries(sides)) {
      await c.waitTracesReady(target);
      if (opts.warmup > 0) await load(target, { duration: opts.warmup, connections: Math.min(8, opts.connections), prefix: `turn-warm-${name}-${run}` });
    }
    for (let k = 0; k < opts.turns; k++) {
      const order = k % 2 === 0 ? ['service', 'group'] : ['group', 'service'];
      const turn = {};
      for (const name of order) {
        turn[name] = throughputOf(await load(sides[name], { duration: opts['turn-seconds'], connections: opts.connections, prefix: `turn${k}-${name}-${run}` }));
      }
      turn.ratio = turn.group.spansPerSec ? turn.service.spansPerSec / turn.group.spansPerSec : null;
      log(
        `   turn ${k + 1} (${order.join(' then ')}): service ${turn.service.spansPerSec.toFixed(0)} spans/s, group-commit baseline ${turn.group.spansPerSec.toFixed(0)}, ` +
          `ratio ${c.fmt(turn.ratio, 2)}; errors ${turn.service.errors} / ${turn.group.errors}`,
      );
      turns.push(turn);
    }
  } finally {
    for (const target of Object.values(sides)) await target.stop();
  }
  return turns;
}

async function runOne(kind, halfRateFrom) {
  const label = `${kind} (${opts.mode})`;
  log(`\n== ${label}: starting`);
  // With --format otlp, the project may have as many exports in flight as the bench has
  // connections (OTLP_PROJECT_EXPORTS, 16 by default): a deployment whose one project exports
  // over 32 connections at once sets it so, and past it every other export would be a 429 that
  // the JSON route, which has no such limit, never answers.
  const env = opts.format === 'otlp' ? { OTLP_PROJECT_EXPORTS: String(opts.connections) } : {};
  const target =
    kind === 'service' ? await c.startService(opts.mode, { log, apps: opts.apps, env }) : await c.startBaseline(opts.mode, { log, groupCommit: kind === 'baseline-group' });
  const run = randomBytes(4).toString('hex');
  const out = { kind };
  try {
    await c.waitTracesReady(target);
    // The all-in-one process's memory (issue 26): at rest once booted, and at its peak while loaded.
    const pid = kind === 'service' && opts.mode === 'all-in-one' ? target.proc?.pid : undefined;
    if (pid) {
      await c.sleep(opts['rest-seconds'] * 1000);
      out.rssAtRestMb = rssMb(pid);
      log(`   RSS at rest (${opts['rest-seconds']} s after ready): ${c.fmt(out.rssAtRestMb, 0)} MB`);
    }
    const otlpToo = kind === 'service' && opts.format === 'otlp';
    if (opts.warmup > 0) {
      log(`   warm-up ${opts.warmup} s${otlpToo ? ' per route' : ''}`);
      await load(target, { duration: opts.warmup, connections: Math.min(8, opts.connections), prefix: `warm-${run}` });
      if (otlpToo) await load(target, { duration: opts.warmup, connections: Math.min(8, opts.connections), route: 'otlp' });
    }
    log(
      `   throughput: ${opts.duration} s, ${opts.connections} connections, ${SPANS}-span traces of ${makeBody('x'.repeat(16), 0).length} bytes, ${opts.ids} ids` +
        (opts.rate ? `, ${opts.rate} traces/s offered` : ''),
    );
    const cpu = startCpu();
    const rss = pid ? sampleRss(pid) : null;
    const loaded = await load(target, {
      duration: opts.duration,
      connections: opts.connections,
      overallRate: opts.rate || undefined,
      prefix: `bench-${run}`,
    });
    const { result, acked, statuses } = loaded;
    out.cpu = cpu.stop();
    if (rss) out.rssPeakMb = rss.stop();
    Object.assign(out, {
      traces: acked.length,
      ...throughputOf(loaded),
      p50: result.latency.p50,
      p99: result.latency.p99,
      statuses,
      seconds: result.duration,
    });
    log(
      `   ${out.tracesPerSec.toFixed(0)} traces/s, ${out.spansPerSec.toFixed(0)} spans/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ` +
        `errors ${out.errors} (autocannon errors ${result.errors}, timeouts ${result.timeouts}, statuses ${JSON.stringify(statuses)})`,
    );
    log(`   CPU (% of one core): ${formatCpu(out.cpu)}`);

    if (target.stream) {
      // Distributed: when the consumer had stored all it was sent, as its committed offsets say
      // (bench/lib/group-lag.js). The listing below counts exactly but takes its own time: a
      // full listing of ~100,000 traces takes the service's PostgreSQL tens of seconds.
      const caughtUp = await waitGroupCaughtUp(target.stream);
      out.storedAfterMs = caughtUp.ms;
      log(`   ${target.stream.groupId}: ${caughtUp.behind} records behind at the load's end, none after ${caughtUp.ms ?? 'never (timed out)'} ms`);
    }
    log(`   counting stored spans of ${acked.length} acknowledged traces`);
    const counted = await countStored(target, acked, { settleMs: opts.mode === 'distributed' ? 30000 : 5000 });
    Object.assign(out, { acknowledgedSpans: acked.length * SPANS, storedSpans: counted.stored, catchUpMs: counted.catchUpMs });
    log(
      `   stored ${counted.stored} of ${acked.length * SPANS} acknowledged spans (all listed after ${counted.catchUpMs} ms; ` +
        `${counted.fetchedOneByOne} fetched one by one${counted.listError ? `; list failed: ${counted.listError}` : ''})`,
    );

    if (counted.stored < acked.length * SPANS && target.proc) {
      const hints = target.proc
        .output()
        .split('\n')
        .filter((l) => /out of range|dead.letter|lost|error/i.test(l));
      if (hints.length)
        log(
          `   the ${kind}'s log says (${hints.length} such lines; first 3):\n     ` +
            hints
              .slice(0, 3)
              .map((l) => l.slice(0, 300))
              .join('\n     '),
        );
    }
    if (otlpToo) {
      out.otlp = await routeThroughput(target, 'otlp', `otlp-${run}`);
      out.otlpRounds = [{ json: { spansPerSec: out.spansPerSec }, otlp: out.otlp }, ...(await moreOtlpRounds(target, run))];
    }

    const fullRate = halfRateFrom ?? out.tracesPerSec;
    const half = Math.max(1, Math.floor(fullRate / 2));
    const probeRate = Math.min(opts['probe-rate'], half);
    const background = Math.max(0, half - probeRate);
    log(`   delay: ${opts['delay-duration']} s at ${half} traces/s (${background} background + ${probeRate} probes/s)`);
    const bg = background
      ? load(target, { duration: opts['delay-duration'], connections: Math.min(opts.connections, 16), overallRate: background, prefix: `half-${run}` })
      : Promise.resolve(null);
    const delay = await probeDelays(target, { rate: probeRate, durationMs: opts['delay-duration'] * 1000, prefix: `probe-${run}` });
    const bgResult = await bg;
    Object.assign(out, {
      delayRate: half,
      delayP50: delay.p50,
      delayP99: delay.p99,
      delayMax: delay.max,
      delayProbes: delay.n,
      delayErrors: delay.errors + delay.neverVisible + (bgResult ? bgResult.result.errors + bgResult.result.timeouts + non202Of(bgResult.statuses) : 0),
    });
    log(
      `   delay p50 ${c.fmt(delay.p50, 2)} ms, p99 ${c.fmt(delay.p99, 2)} ms, max ${c.fmt(delay.max, 2)} ms over ${delay.n} probes; ` +
        `errors ${delay.errors}, never visible ${delay.neverVisible}${delay.firstError ? ` (first: ${delay.firstError})` : ''}` +
        (bgResult ? `; background ${(bgResult.acked.length / bgResult.result.duration).toFixed(0)} traces/s, statuses ${JSON.stringify(bgResult.statuses)}` : ''),
    );
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
  log(
    `Trace ingest benchmark, mode ${opts.mode}, duration ${opts.duration} s` +
      (opts.rate ? `, ${opts.rate} traces/s offered (service and baseline alike: their ratio is not a throughput ratio)` : '') +
      (opts.duration < 60 ? ' (short run: the target is sustained for 60 s)' : ''),
  );
  const results = {};
  if (opts.only !== 'baseline') {
    try {
      results.service = await runOne('service');
    } catch (e) {
      results.service = { failed: e.message };
      log(`service could not start: ${e.message}`);
    }
  }
  if (opts.only !== 'service') {
    const halfFrom = results.service && !results.service.failed && results.service.tracesPerSec > 0 ? results.service.tracesPerSec : undefined;
    try {
      results.baseline = await runOne('baseline', halfFrom);
    } catch (e) {
      results.baseline = { failed: e.message };
      log(`baseline could not start: ${e.message}`);
    }
    if (opts.mode === 'all-in-one') {
      try {
        results.baselineGroup = await runOne('baseline-group', halfFrom);
      } catch (e) {
        results.baselineGroup = { failed: e.message };
        log(`group-commit baseline could not start: ${e.message}`);
      }
    }
  }
  let turns = null;
  if (opts.mode === 'all-in-one' && !opts.only && !opts.rate && opts.turns > 0) {
    try {
      turns = await groupCommitTurns();
    } catch (e) {
      turns = { failed: e.message };
      log(`the turns could not run: ${e.message}`);
    }
  }
  const turnList = Array.isArray(turns) ? turns : [];
  const turnRatios = turnList.map((t) => t.ratio).filter((r) => r !== null);
  const turnRatio = turnRatios.length ? median(turnRatios) : null;
  const s = results.service || {};
  const b = results.baseline || {};
  const num = (v) => (typeof v === 'number' && !Number.isNaN(v) ? v : null);
  const has = (r) => r && !r.failed && r.traces !== undefined;
  const ratio = has(s) && has(b) && b.spansPerSec ? s.spansPerSec / b.spansPerSec : null;
  const g = results.baselineGroup || {};
  const groupRatio = has(s) && has(g) && g.spansPerSec ? s.spansPerSec / g.spansPerSec : null;
  const missing = has(s) ? s.acknowledgedSpans - s.storedSpans : null;
  const rows = [
    { figure: 'ingest traces/s', service: num(s.tracesPerSec), baseline: num(b.tracesPerSec) },
    {
      figure: `ingest spans/s (${opts.duration} s)`,
      service: num(s.spansPerSec),
      baseline: num(b.spansPerSec),
      target: `>= ${TARGETS.spansPerSec}` + (opts.duration < 60 ? ' (60 s)' : ''),
      pass: has(s) ? s.spansPerSec >= TARGETS.spansPerSec : false,
    },
    {
      figure: 'ingest throughput service / baseline',
      service: ratio,
      baseline: null,
      ratio,
      target: `>= ${TARGETS.ratio}`,
      pass: opts.only || opts.rate ? null : ratio === null ? false : ratio >= TARGETS.ratio,
    },
    ...(opts.mode === 'all-in-one' && opts.only !== 'service'
      ? [
          // The physical limit of this design here (issue 26): bare Fastify + better-sqlite3 committing concurrent POSTs together.
          { figure: 'group-commit baseline spans/s', service: null, baseline: num(g.spansPerSec) },
          // One after the other, minutes apart: printed, judged only when no turns ran.
          {
            figure: 'ingest throughput service / group-commit baseline, one after the other',
            service: groupRatio,
            baseline: null,
            ratio: groupRatio,
            target: turns ? null : '>= 0.6',
            pass: opts.only || opts.rate || turns ? null : groupRatio === null ? false : groupRatio >= 0.6,
          },
          ...(turns
            ? [
                ...turnList.map((t, i) => ({
                  figure: `turn ${i + 1}: service / group-commit baseline spans/s`,
                  service: num(t.service.spansPerSec),
                  baseline: num(t.group.spansPerSec),
                  ratio: t.ratio,
                })),
                {
                  figure: `ingest throughput service / group-commit baseline in turns (median of ${turnRatios.length}: ${turnRatios.map((r) => r.toFixed(2)).join(', ')})`,
                  service: turnRatio,
                  baseline: null,
                  ratio: turnRatio,
                  target: '>= 0.6',
                  pass: turnRatio === null ? false : turnRatio >= 0.6,
                },
              ]
            : []),
        ]
      : []),
    ...(opts.mode === 'all-in-one' && opts.only !== 'baseline'
      ? [
          { figure: 'RSS at rest (MB)', service: num(s.rssAtRestMb), baseline: null, target: '<= 200', pass: num(s.rssAtRestMb) === null ? false : s.rssAtRestMb <= 200 },
          {
            figure: 'RSS peak during the throughput run (MB)',
            service: num(s.rssPeakMb),
            baseline: null,
            target: '<= 400' + (opts.duration < 60 ? ' (60 s)' : ''),
            pass: num(s.rssPeakMb) === null ? false : s.rssPeakMb <= 400,
          },
        ]
      : []),
    { figure: 'ingest latency p50 (ms)', service: num(s.p50), baseline: num(b.p50) },
    { figure: 'ingest latency p99 (ms)', service: num(s.p99), baseline: num(b.p99) },
    { figure: 'ingest errors', service: num(s.errors), baseline: num(b.errors), target: '0', pass: has(s) ? s.errors === 0 : false },
    { figure: 'spans acknowledged (202)', service: num(s.acknowledgedSpans), baseline: num(b.acknowledgedSpans) },
    { figure: 'spans stored (counted after)', service: num(s.storedSpans), baseline: num(b.storedSpans) },
    { figure: 'acknowledged spans not stored', service: missing, baseline: has(b) ? b.acknowledgedSpans - b.storedSpans : null, target: '0', pass: missing === 0 },
    ...(opts.mode === 'distributed' ? [{ figure: "all acknowledged stored after (ms; the group's lag 0)", service: num(s.storedAfterMs), baseline: num(b.storedAfterMs) }] : []),
    { figure: 'all acknowledged listed after (ms)', service: num(s.catchUpMs), baseline: num(b.catchUpMs) },
    {
      figure: `ingest-to-readable p50 (ms) @ ${s.delayRate ?? b.delayRate ?? '?'} traces/s`,
      service: num(s.delayP50),
      baseline: num(b.delayP50),
    },
    {
      figure: 'ingest-to-readable p99 (ms)',
      service: num(s.delayP99),
      baseline: num(b.delayP99),
      target: `<= ${TARGETS.delayP99}`,
      pass: num(s.delayP99) !== null ? s.delayP99 <= TARGETS.delayP99 && s.delayErrors === 0 : false,
    },
    { figure: 'delay phase errors / never visible', service: num(s.delayErrors), baseline: num(b.delayErrors), target: '0', pass: has(s) ? s.delayErrors === 0 : false },
  ];
  if (opts.format === 'otlp') {
    // Every phase after the first JSON one is counted back: OTLP's, and both routes' in later rounds.
    const laterPhases = (s.otlpRounds || []).flatMap((r, i) => (i === 0 ? [r.otlp] : [r.json, r.otlp]));
    const otlpNotStored = laterPhases.length ? laterPhases.reduce((sum, p) => sum + (p.acknowledgedSpans - p.storedSpans), 0) : null;
    const o = s.otlp || {};
    const roundRatios = (s.otlpRounds || []).map((r) => (r.json.spansPerSec ? r.otlp.spansPerSec / r.json.spansPerSec : null)).filter((r) => r !== null);
    const otlpRatio = roundRatios.length ? median(roundRatios) : null;
    rows.push(
      { figure: `OTLP protobuf spans/s (${opts.duration} s, same run)`, service: num(o.spansPerSec), baseline: null },
      ...(s.otlpRounds || []).slice(1).flatMap((r, i) => [
        { figure: `round ${i + 2}: JSON route spans/s`, service: num(r.json.spansPerSec), baseline: null },
        { figure: `round ${i + 2}: OTLP spans/s`, service: num(r.otlp.spansPerSec), baseline: null },
      ]),
      {
        figure: `OTLP spans/s / JSON route spans/s (median of ${roundRatios.length}: ${roundRatios.map((r) => r.toFixed(2)).join(', ')})`,
        service: otlpRatio,
        baseline: null,
        ratio: otlpRatio,
        target: '>= 1.0',
        pass: otlpRatio === null ? false : otlpRatio >= 1,
      },
      { figure: 'OTLP latency p50 (ms)', service: num(o.p50), baseline: null },
      { figure: 'OTLP latency p99 (ms)', service: num(o.p99), baseline: null },
      { figure: 'OTLP errors', service: num(o.errors), baseline: null, target: '0', pass: num(o.errors) === 0 },
      {
        figure: 'OTLP acknowledged spans not stored (every round)',
        service: otlpNotStored,
        baseline: null,
        target: '0',
        pass: otlpNotStored === 0,
      },
    );
  }
  if (opts.only === 'baseline') for (const r of rows) r.pass = null;
  console.log(
    `\nTrace ingest, ${opts.mode}: ${SPANS}-span traces of ~${makeBody('x'.repeat(16), 0).length} bytes, ` +
      `${opts.duration} s, ${opts.connections} connections, load generator on this machine (autocannon); ` +
      `ratio = service / baseline (${opts.mode === 'all-in-one' ? 'Fastify + better-sqlite3' : 'Fastify + kafkajs + pg'})`,
  );
  if (s.failed) console.log(`service: FAILED: ${s.failed.split('\n')[0]}`);
  if (b.failed) console.log(`baseline: FAILED: ${b.failed.split('\n')[0]}`);
  if (g.failed) console.log(`group-commit baseline: FAILED: ${g.failed.split('\n')[0]}`);
  if (turns?.failed) console.log(`turns: FAILED: ${turns.failed.split('\n')[0]}`);
  c.printTable(`Results (${new Date().toISOString()})`, rows);
  console.log('\nCPU during the throughput run (% of one core):');
  if (s.cpu) console.log(`  service:  ${formatCpu(s.cpu)}`);
  if (s.otlp?.cpu) console.log(`  service, OTLP: ${formatCpu(s.otlp.cpu)}`);
  if (b.cpu) console.log(`  baseline: ${formatCpu(b.cpu)}`);
  if (g.cpu) console.log(`  group-commit baseline: ${formatCpu(g.cpu)}`);
  console.log(
    `\nJSON ${JSON.stringify({ mode: opts.mode, duration: opts.duration, connections: opts.connections, service: s, baseline: b, baselineGroup: results.baselineGroup, turns })}`,
  );
}

main()
  .catch((e) => console.error(`benchmark failed: ${e.stack || e.message}`))
  .finally(async () => {
    await c.cleanupAll();
    process.exit(0);
  });
