'use strict';
// Shared helpers of the trace benchmarks: arguments, payloads, an HTTP client with
// microsecond latencies, processes (service, baselines, mock broker), PostgreSQL
// databases, and the result table. Plain CommonJS so the benchmarks run without a build.
const { spawn, execFile } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

const ROOT = path.resolve(__dirname, '..', '..');
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

// ---------------------------------------------------------------- arguments

/** `--name value` / `--name=value` / `--flag` into an object, with defaults. */
function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument '${arg}'`);
    let [name, value] = arg.slice(2).split(/=(.*)/s);
    if (!(name in defaults)) throw new Error(`unknown option --${name} (known: ${Object.keys(defaults).join(', ')})`);
    if (value === undefined) {
      if (typeof defaults[name] === 'boolean') value = 'true';
      else value = argv[++i];
    }
    if (value === undefined) throw new Error(`--${name} needs a value`);
    const d = defaults[name];
    out[name] = typeof d === 'number' ? Number(value) : typeof d === 'boolean' ? value !== 'false' : value;
    if (typeof d === 'number' && !Number.isFinite(out[name])) throw new Error(`--${name} must be a number`);
  }
  return out;
}

// ---------------------------------------------------------------- payloads

const WORDS = (
  'a slow dolly shot across a rain soaked neon street at night reflections shimmer on wet asphalt ' +
  'cinematic lighting shallow depth of field 35mm film grain a lone cyclist passes under flickering ' +
  'signs steam rises from a vent the camera tilts up to reveal a skyline wrapped in low clouds'
).split(' ');
function text(n, seed) {
  let s = '';
  for (let i = 0; s.length < n; i++) s += (s ? ' ' : '') + WORDS[(seed * 7 + i * 13) % WORDS.length];
  return s.slice(0, n);
}
const KINDS = ['agent', 'generation', 'llm', 'tool', 'retrieval', 'embedding', 'generation', 'tool', 'scorer', 'span'];

/** A plain trace object (valid against the contract): `spans` spans, each `spanText` chars of prompt. */
function traceObject(id, baseMs, { spans = 10, spanText = 230, traceText = 300 } = {}) {
  const iso = (ms) => new Date(ms).toISOString();
  const trace = {
    id,
    name: 'render-pipeline',
    status: 'ok',
    startTime: iso(baseMs),
    endTime: iso(baseMs + 100 * spans + 50),
    input: { prompt: text(traceText, 1), aspectRatio: '16:9', durationSeconds: 8 },
    output: { videoUrl: 'https://cdn.example.test/v/' + id + '.mp4', frames: 192 },
    metadata: { pipeline: 'txt2vid-v3', environment: 'bench', region: 'local', attempt: 1 },
    tags: ['bench', 'video'],
    userId: 'user-42',
    sessionId: 'session-7',
    spans: [],
  };
  for (let i = 0; i < spans; i++) {
    const start = baseMs + 10 + i * 100;
    trace.spans.push({
      id: `s${i}`,
      parentId: i === 0 ? null : i < 4 ? 's0' : `s${i - 1}`,
      name: `${KINDS[i % KINDS.length]}-${i}`,
      kind: KINDS[i % KINDS.length],
      status: 'ok',
      startTime: iso(start),
      endTime: iso(start + 90),
      model: 'video-model-xl',
      input: { prompt: text(spanText, i + 2) },
      output: { caption: text(Math.floor(spanText / 4), i + 3), seed: 1000 + i },
      usage: { inputTokens: 120 + i, outputTokens: 40 + i, videoSeconds: 0.5 },
      costUsd: 0.0012,
      attributes: { 'gen.steps': 30, 'gen.cfg': 7.5, 'gen.sampler': 'dpmpp-2m', shard: i % 4 },
      events: [{ name: 'queued', time: iso(start + 1) }],
    });
  }
  return trace;
}

/**
 * A fast body factory: `(id, baseMs) => JSON string`, made once from a template so a
 * load generator spends microseconds per body. Every time in the body moves with baseMs.
 */
function traceBodyFactory(options = {}) {
  const BASE = Date.UTC(2030, 0, 1);
  const ID = 'XTRACEIDX';
  const template = JSON.stringify(traceObject(ID, BASE, options));
  // Split into literal parts and holes: the id, or an ISO time at an offset from the base.
  const re = new RegExp(`${ID}|"(20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\dZ)"`, 'g');
  const parts = [];
  const holes = [];
  let last = 0;
  for (let m; (m = re.exec(template));) {
    parts.push(template.slice(last, m.index));
    holes.push(m[1] ? Date.parse(m[1]) - BASE : null);
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return (id, baseMs) => {
    let s = parts[0];
    for (let i = 0; i < holes.length; i++) {
      s += (holes[i] === null ? id : '"' + new Date(baseMs + holes[i]).toISOString() + '"') + parts[i + 1];
    }
    return s;
  };
}

// ---------------------------------------------------------------- HTTP client

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves { status, body (string), json(), ms } with ms from hrtime. */
function request(baseUrl, method, urlPath, { headers = {}, body, timeoutMs = 30000 } = {}) {
  const url = new URL(urlPath, baseUrl);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: text,
            ms,
            json() {
              return JSON.parse(text);
            },
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A request with a JSON body (if any) that must answer `status`; answers its JSON, or throws naming the request and the answer. */
async function expectJson(baseUrl, method, urlPath, { headers = {}, body, status, timeoutMs = 60000 }) {
  const r = await request(baseUrl, method, urlPath, { headers, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs });
  if (r.status !== status) throw new Error(`${method} ${urlPath}: ${r.status} ${r.body.slice(0, 300)}`);
  return r.json();
}

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
function summarize(latencies) {
  const s = Float64Array.from(latencies).sort();
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN };
}

/**
 * Repeats `makeRequest()` from `concurrency` workers for `durationMs` (after `warmupMs`
 * not counted) or until `maxRequests`; returns latency percentiles (ms), rate and errors,
 * and with `keepLatencies` every latency (to pool several windows).
 */
async function measureLatency(
  makeRequest,
  { concurrency = 2, durationMs = 10000, warmupMs = 1000, maxRequests = Infinity, check = (r) => r.status === 200, keepLatencies = false },
) {
  const latencies = [];
  let errors = 0;
  let firstError = null;
  const warmEnd = Date.now() + warmupMs;
  const end = warmEnd + durationMs;
  let started = 0;
  const worker = async () => {
    while (Date.now() < end && started < maxRequests) {
      const warm = Date.now() < warmEnd;
      if (!warm) started++;
      try {
        const r = await makeRequest();
        if (!check(r)) {
          errors++;
          firstError ??= `${r.status} ${r.body.slice(0, 200)}`;
        } else if (!warm) latencies.push(r.ms);
      } catch (e) {
        errors++;
        firstError ??= e.message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (Date.now() - warmEnd) / 1000;
  return { ...summarize(latencies), rate: latencies.length / Math.max(elapsed, 0.001), errors, firstError, ...(keepLatencies ? { latencies } : {}) };
}

// ---------------------------------------------------------------- processes

const started = []; // cleanup stack: functions run in reverse order on exit or signal
function onCleanup(fn) {
  started.push(fn);
  return fn;
}
async function cleanupAll() {
  while (started.length) {
    const fn = started.pop();
    try {
      await fn();
    } catch (e) {
      console.error(`cleanup: ${e.message}`);
    }
  }
}
let signalled = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (signalled) return;
    signalled = true;
    console.error(`\n${sig}: stopping what the benchmark started…`);
    await cleanupAll();
    process.exit(130);
  });
}

function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * Spawns a node program in its own process group (so its children can be stopped with
 * it, by our pid), keeping the last 64 KiB of its output. `root`: the checkout whose files
 * `args` name (this one unless an A/B runs another build).
 */
function startProcess(name, args, env, { root = ROOT } = {}) {
  const child = spawn(process.execPath, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d) => {
    output += d.toString();
    if (output.length > 65536) output = output.slice(-65536);
    if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${d}`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // A program that cannot be spawned (a root that does not exist) ends as an exit with its
  // reason in the output, not as an unhandled 'error' that would take the bench down with
  // its brokers and databases left behind.
  let spawnFailed = false;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => {
      spawnFailed = true;
      keep(`${name} could not start in ${root}: ${err.message}\n`);
      resolve({ code: null, signal: null });
    });
  });
  const proc = {
    name,
    pid: child.pid,
    get running() {
      return !spawnFailed && child.exitCode === null && child.signalCode === null;
    },
    output: () => output,
    exited,
    async stop() {
      if (proc.running) {
        try {
          process.kill(child.pid, 'SIGTERM');
        } catch {}
        const timer = sleep(15000).then(() => 'timeout');
        if ((await Promise.race([exited, timer])) === 'timeout') {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
          await exited;
        }
      }
      // Whatever it started and left behind in its group (our group: pgid = its pid).
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    },
  };
  onCleanup(() => proc.stop());
  return proc;
}

/** Waits until GET path answers 200 (and `extra()` resolves true), or throws with the output. */
async function waitReady(proc, baseUrl, { path: p = '/readyz', headers = {}, timeoutMs = 120000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!proc.running) throw new Error(`${proc.name} exited while starting:\n${proc.output().slice(-3000)}`);
    try {
      const r = await request(baseUrl, 'GET', p, { headers, timeoutMs: 5000 });
      if (r.status === 200) return;
      last = `${r.status} ${r.body.slice(0, 200)}`;
    } catch (e) {
      last = e.message;
    }
    await sleep(250);
  }
  throw new Error(`${proc.name} not ready after ${timeoutMs} ms (last: ${last}):\n${proc.output().slice(-3000)}`);
}

// ---------------------------------------------------------------- PostgreSQL and Kafka

async function pgAdmin(sql) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
/**
 * ANALYZE of a bench's PostgreSQL database (every schema), what autovacuum does on its own in
 * a real deployment: the PostgreSQL these benches run on has autovacuum off, and a table
 * filled without statistics gets plans for an empty one (a page of a 50,000-trace project
 * read by bitmap scan and sort, 33 ms, instead of down its index, 0.06 ms). Nothing for SQLite.
 */
async function analyzeDatabase(database) {
  if (!database) return;
  const { Client } = require('pg');
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** A fresh database, dropped at cleanup. */
async function createDatabase(tag) {
  const name = `ct_bench_${tag}_${randomBytes(5).toString('hex')}`;
  await pgAdmin(`CREATE DATABASE ${name}`);
  // BENCH_KEEP_DB=1 leaves it for a look afterwards (say, at when each task was handed over, started and ended).
  if (!process.env.BENCH_KEEP_DB) onCleanup(() => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** An Apache Kafka broker (scripts/kafka/broker.sh: one KRaft node) on a free port pair in 19700-19999. */
async function startBroker() {
  const script = path.join(ROOT, 'scripts/kafka/broker.sh');
  const stateRoot = tempDir('cinetrace-bench-kafka-');
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 19700 + Math.floor(Math.random() * 299);
    // The controller listens on the next port.
    if (port === 19092 || (await portOpen(port)) || (await portOpen(port + 1))) continue;
    const stateDir = path.join(stateRoot, String(port));
    const env = { ...process.env, KAFKA_STATE_DIR: stateDir };
    const run = (cmd) =>
      new Promise((resolve, reject) =>
        execFile('bash', [script, cmd, '--port', String(port)], { env, timeout: 180000 }, (err, stdout, stderr) =>
          err ? reject(new Error(`broker.sh ${cmd} --port ${port}: ${stderr || err.message}`)) : resolve(stdout.trim().split('\n').pop()),
        ),
      );
    const brokers = await run('start');
    // stateDir: its files (server.properties among them, on the JVM's command line).
    const broker = { brokers, port, stateDir, stop: () => run('stop') };
    onCleanup(() => broker.stop());
    return broker;
  }
  throw new Error('no free port pair for the broker in 19700-19999');
}

/** `{ [name]: String(value) }`, or nothing when the value is unset. */
const optional = (name, value) => (value === undefined || value === '' ? {} : { [name]: String(value) });

// ---------------------------------------------------------------- the service

/**
 * Starts the service in `mode`, creates a project, and answers
 * { baseUrl, headers (auth + project), projectId, stop() }. `env`: more variables for the
 * service's processes (the mode's broker, database and Redis settings take precedence).
 */
async function startService(mode, { log = console.error, apps = '', env: extraEnv = {}, kafkaWaits = {}, root = ROOT } = {}) {
  let database = null;
  const dataDir = tempDir('cinetrace-bench-data-');
  const apiKey = 'bench-' + randomBytes(16).toString('hex');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: apiKey,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    // For profiling the apps (say, `--require` of a profiler preload); the bench itself runs without it.
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    // And the profiler preload's settings (bench/lib/profile-preload.js).
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_PROFILE_'))),
    // Settings to try on the apps, as a JSON object (say '{"TRACE_INGEST_MAX_LAG_BYTES":"268435456"}').
    ...(process.env.BENCH_APP_ENV ? JSON.parse(process.env.BENCH_APP_ENV) : {}),
  };
  // A benchmark's own settings (queue prefix, quotas, worker concurrency); the mode's own below win.
  Object.assign(env, extraEnv);
  const cleanups = [];
  let proc;
  let stream = null;
  if (mode === 'all-in-one') {
    proc = startProcess('all-in-one', ['apps/all-in-one/dist/main.js'], env, { root });
  } else {
    const broker = await startBroker();
    // trace-ingest's consumer group on the trace topic.
    const { ConsumerGroups, Topics } = require(path.join(root, 'libs/contracts/dist'));
    stream = { brokers: broker.brokers, groupId: ConsumerGroups.TraceIngest, topic: Topics.TraceIngest };
    const db = (database = await createDatabase('svc'));
    log(`  Kafka broker ${broker.brokers}, database ${db.name}`);
    Object.assign(env, {
      KAFKA_BROKERS: broker.brokers,
      // The service's own fetch waits (500 ms: Kafka answers as soon as records arrive) unless a
      // bench or BENCH_KAFKA_MAX_WAIT_MS / BENCH_KAFKA_STREAM_MAX_WAIT_MS asks for others.
      ...optional('KAFKA_MAX_WAIT_MS', process.env.BENCH_KAFKA_MAX_WAIT_MS || kafkaWaits.bus),
      ...optional('KAFKA_STREAM_MAX_WAIT_MS', process.env.BENCH_KAFKA_STREAM_MAX_WAIT_MS || kafkaWaits.stream),
      DATABASE_URL: db.url,
      REDIS_URL: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
      // project-service requires the key secrets are encrypted with in this mode.
      SECRETS_KEY: randomBytes(32).toString('base64'),
    });
    if (apps) {
      // Each app as its own process, as start-distributed.js does, but only these
      // (e.g. while an app it lists cannot start yet). The gateway answers on PORT.
      const list = apps
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      if (!list.includes('gateway')) throw new Error('--apps must include gateway');
      const procs = [];
      for (const app of list) {
        const appPort = app === 'gateway' ? port : await freePort();
        procs.push(startProcess(app, [`apps/${app}/dist/main.js`], { ...env, PORT: String(appPort) }, { root }));
      }
      proc = {
        name: `distributed (${list.join(', ')})`,
        get running() {
          return procs.every((p) => p.running);
        },
        output: () => procs.map((p) => `--- ${p.name}\n${p.output()}`).join('\n'),
        stop: async () => {
          for (const p of procs.slice().reverse()) await p.stop();
        },
      };
    } else {
      proc = startProcess('distributed', ['scripts/start-distributed.js'], env, { root });
    }
    cleanups.push(() => broker.stop());
  }
  const auth = { authorization: `Bearer ${apiKey}` };
  await waitReady(proc, baseUrl);
  await waitReady(proc, baseUrl, { path: '/api/v1/projects', headers: auth });
  const created = await request(baseUrl, 'POST', '/api/v1/projects', {
    headers: auth,
    body: JSON.stringify({ name: 'Bench ' + randomBytes(3).toString('hex') }),
  });
  if (created.status !== 201) throw new Error(`creating a project: ${created.status} ${created.body}`);
  const project = created.json();
  // The project prices the bench's model, so every span sent without a cost (the OTLP route's) is priced at ingest.
  const priced = await request(baseUrl, 'PUT', '/api/v1/model-prices', {
    headers: { ...auth, 'x-project-key': project.key },
    body: JSON.stringify({ entries: BENCH_MODEL_PRICES }),
  });
  if (priced.status !== 200) throw new Error(`setting the model prices: ${priced.status} ${priced.body}`);
  return {
    kind: 'service',
    mode,
    proc,
    /** Distributed: where the traces are stored from (see bench/lib/group-lag.js); null all-in-one. */
    stream,
    analyze: () => analyzeDatabase(database),
    baseUrl,
    projectId: project.id,
    headers: { ...auth, 'x-project-key': project.key },
    async stop() {
      await proc.stop();
      for (const fn of cleanups) await fn().catch(() => {});
    },
  };
}

/** Prices of the bench traces' model (a regex among them, as a project may write). */
const BENCH_MODEL_PRICES = [
  { match: 'video-model-xl', unit: 'input_token', usd: 0.000002 },
  { match: 'video-model-xl', unit: 'output_token', usd: 0.000008 },
  { match: { regex: '^video-model' }, unit: 'video_second', usd: 0.25 },
];

/** Starts the bare baseline of `mode` (its own store, broker and database). */
async function startBaseline(mode, { log = console.error, groupCommit = false, env: extraEnv = {} } = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1' };
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('BASELINE_')) env[k] = v;
  Object.assign(env, extraEnv);
  // All-in-one: the baseline that commits concurrent POSTs together (bench/baseline-sqlite.js --group-commit).
  if (groupCommit) env.BASELINE_GROUP_COMMIT = '1';
  const cleanups = [];
  let proc;
  let database = null;
  let stream = null;
  if (mode === 'all-in-one') {
    env.DATA_DIR = tempDir('cinetrace-bench-baseline-');
    proc = startProcess('baseline-sqlite', ['bench/baseline-sqlite.js'], env);
  } else {
    const broker = await startBroker();
    // bench/baseline-kafka-pg.js's group and topic (BASELINE_TOPIC is not set here).
    stream = { brokers: broker.brokers, groupId: 'bench-baseline', topic: 'bench-baseline-traces' };
    const db = (database = await createDatabase('base'));
    log(`  Kafka broker ${broker.brokers}, database ${db.name}`);
    Object.assign(env, { KAFKA_BROKERS: broker.brokers, DATABASE_URL: db.url });
    proc = startProcess('baseline-kafka-pg', ['bench/baseline-kafka-pg.js'], env);
    cleanups.push(() => broker.stop());
  }
  await waitReady(proc, baseUrl);
  return {
    kind: 'baseline',
    mode,
    proc,
    stream,
    analyze: () => analyzeDatabase(database),
    baseUrl,
    projectId: 'bench',
    headers: { authorization: 'Bearer unused', 'x-project-key': 'bench' },
    async stop() {
      await proc.stop();
      for (const fn of cleanups) await fn().catch(() => {});
    },
  };
}

// ---------------------------------------------------------------- reading back

/**
 * Ready for traces: one trace POSTed and read back (in distributed mode the trace
 * consumer's group may still be joining when the HTTP side already answers).
 */
async function waitTracesReady(target, timeoutMs = 120000) {
  const id = `ready-${randomBytes(4).toString('hex')}`;
  const body = JSON.stringify({ id, name: 'ready', spans: [{ id: 's0', name: 'ready', startTime: new Date().toISOString() }] });
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  let posted = false;
  while (Date.now() < deadline) {
    try {
      if (!posted) {
        const r = await request(target.baseUrl, 'POST', '/api/v1/traces', { headers: target.headers, body });
        posted = r.status === 202 || r.status === 201;
        last = `POST ${r.status} ${r.body.slice(0, 200)}`;
      }
      if (posted) {
        const g = await request(target.baseUrl, 'GET', `/api/v1/traces/${id}`, { headers: target.headers });
        if (g.status === 200) return;
        last = `GET ${g.status} ${g.body.slice(0, 200)}`;
      }
    } catch (e) {
      last = e.message;
    }
    await sleep(200);
  }
  throw new Error(`trace ingest not working after ${timeoutMs} ms (last: ${last})`);
}

/** Pages through GET /api/v1/traces (limit 200) and answers Map id -> spanCount. */
async function listAll(target, { limit = 200 } = {}) {
  const seen = new Map();
  let cursor = null;
  do {
    const q = `/api/v1/traces?limit=${limit}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const r = await request(target.baseUrl, 'GET', q, { headers: target.headers, timeoutMs: 60000 });
    if (r.status !== 200) throw new Error(`GET ${q}: ${r.status} ${r.body.slice(0, 300)}`);
    const page = r.json();
    for (const t of page.data) seen.set(t.id, t.spanCount);
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

// ---------------------------------------------------------------- output

const fmt = (v, digits = 1) =>
  v === null || v === undefined || Number.isNaN(v)
    ? 'n/a'
    : typeof v === 'number'
      ? Number.isInteger(v)
        ? String(v)
        : Math.abs(v) < 10
          ? v.toFixed(2)
          : v.toFixed(digits)
      : String(v);

/** rows: { figure, service, baseline, target, pass (true/false/null), ratio? } */
function printTable(title, rows) {
  const header = ['figure', 'service', 'baseline', 'ratio', 'target', 'result'];
  const lines = rows.map((r) => {
    const ratio = r.ratio !== undefined ? r.ratio : typeof r.service === 'number' && typeof r.baseline === 'number' && r.baseline !== 0 ? r.service / r.baseline : null;
    return [
      r.figure,
      fmt(r.service),
      fmt(r.baseline),
      ratio === null ? 'n/a' : ratio.toFixed(2),
      r.target || '-',
      r.pass === null || r.pass === undefined ? '-' : r.pass ? 'pass' : 'MISSED',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
  const missed = rows.filter((r) => r.pass === false).map((r) => r.figure);
  const judged = rows.filter((r) => r.pass === true || r.pass === false).length;
  console.log(missed.length ? `\nMISSED: ${missed.join('; ')}` : judged ? '\nAll targets met.' : '\nNo target judged in this table.');
  return missed;
}

module.exports = {
  ROOT,
  parseArgs,
  traceObject,
  traceBodyFactory,
  request,
  expectJson,
  summarize,
  percentile,
  measureLatency,
  onCleanup,
  cleanupAll,
  tempDir,
  freePort,
  startProcess,
  startBroker,
  createDatabase,
  startService,
  startBaseline,
  listAll,
  waitTracesReady,
  printTable,
  fmt,
  sleep,
};
