#!/usr/bin/env node
'use strict';
// The distributed baseline: bare Fastify + kafkajs + pg doing the work of trace ingest
// without validation, authentication or a framework. POST produces the trace to a topic
// (acks -1; the sends of one event-loop turn go out as one produce request) and answers
// 202 once the broker acknowledged; a kafkajs consumer in the same process writes each
// fetched batch to PostgreSQL with multi-row INSERT … ON CONFLICT upserts (traces, then
// spans as JSON text) and commits its offsets after. GET by id and the keyset list read
// PostgreSQL. The project is the X-Project-Key header (no lookup).
// Env: PORT (3101), HOST (127.0.0.1), KAFKA_BROKERS, DATABASE_URL, BASELINE_TOPIC (bench-baseline-traces),
// BASELINE_LINGER_MS (20), BASELINE_MAX_BATCH (2000), BASELINE_MAX_WAIT_MS (500), BASELINE_PARTITIONS (12), BASELINE_DEBUG (1: log batches).
const Fastify = require('fastify');
const { traceSummary } = require('./lib/trace-summary');
const { Kafka, logLevel } = require('kafkajs');
const { Pool } = require('pg');
const connections = require('./lib/connections');

const port = Number(process.env.PORT || 3101);
const host = process.env.HOST || '127.0.0.1';
const databaseUrl = connections.env().DATABASE_URL;
if (!process.env.KAFKA_BROKERS || !databaseUrl) {
  console.error('baseline-kafka-pg needs KAFKA_BROKERS and DATABASE_URL');
  process.exit(1);
}
const topic = process.env.BASELINE_TOPIC || 'bench-baseline-traces';
// As the service's stream consumers (KAFKA_STREAM_MAX_WAIT_MS): Kafka answers a fetch as soon as records arrive.
const maxWaitTimeInMs = Number(process.env.BASELINE_MAX_WAIT_MS || 500);
// As the service's trace.ingest (TRACE_TOPIC_PARTITIONS).
const partitions = Number(process.env.BASELINE_PARTITIONS || 12);
const debug = process.env.BASELINE_DEBUG === '1';

const pool = new Pool({ ...connections.pgConnection(databaseUrl), max: 10 });
// TLS and SASL as the apps use them (KAFKA_SSL, KAFKA_SASL_*).
const kafka = new Kafka({ clientId: 'bench-baseline', ...connections.kafkaConnection(), logLevel: logLevel.ERROR });
const producer = kafka.producer({ allowAutoTopicCreation: false });
const consumer = kafka.consumer({ groupId: 'bench-baseline', maxWaitTimeInMs, allowAutoTopicCreation: false });

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS traces (
    project_id text NOT NULL, id text NOT NULL, name text, status text NOT NULL,
    start_time timestamptz NOT NULL, end_time timestamptz, span_count int NOT NULL, error_count int NOT NULL,
    user_id text, session_id text, tags text NOT NULL, metadata text NOT NULL, input text, output text,
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, id));
  CREATE INDEX IF NOT EXISTS traces_by_start ON traces (project_id, start_time DESC, id DESC);
  CREATE TABLE IF NOT EXISTS spans (
    project_id text NOT NULL, trace_id text NOT NULL, id text NOT NULL, start_time timestamptz NOT NULL, data text NOT NULL,
    PRIMARY KEY (project_id, trace_id, id));`;

// ---------------------------------------------------------------- producing

// The sends of LINGER_MS go out as one produce request (as a Java producer's linger.ms):
// librdkafka's mock broker answers a fetch with one record batch per partition, so
// many small produce requests would make the consumer fall behind.
const LINGER_MS = Number(process.env.BASELINE_LINGER_MS ?? 20);
const MAX_BATCH = Number(process.env.BASELINE_MAX_BATCH ?? 2000);
// Flow control: the mock broker keeps only ~5 MB per partition and drops older records,
// so a consumer that falls behind (one process does HTTP and storage here) would lose
// acknowledged traces. Producing waits while more than MAX_LAG records are unstored.
const MAX_LAG = Number(process.env.BASELINE_MAX_LAG ?? 1000);
let produced = 0;
let stored = 0;
let lagWaiters = [];
function storedMore(n) {
  stored += n;
  if (lagWaiters.length && produced - stored <= MAX_LAG) {
    const waiters = lagWaiters;
    lagWaiters = [];
    for (const w of waiters) w();
  }
}
let pending = [];
let timer = null;
async function produce(message) {
  while (produced - stored > MAX_LAG) await new Promise((resolve) => lagWaiters.push(resolve));
  produced++;
  return new Promise((resolve, reject) => {
    pending.push({ message, resolve, reject });
    if (pending.length >= MAX_BATCH) flush();
    else if (!timer) timer = LINGER_MS > 0 ? setTimeout(flush, LINGER_MS) : setImmediate(flush);
  });
}
async function flush() {
  if (timer) (LINGER_MS > 0 ? clearTimeout : clearImmediate)(timer);
  timer = null;
  const batch = pending;
  pending = [];
  try {
    await producer.send({ topic, acks: -1, messages: batch.map((p) => p.message) });
    for (const p of batch) p.resolve();
  } catch (err) {
    produced -= batch.length;
    for (const p of batch) p.reject(err);
  }
}
let seq = 0;
const newId = () => `tr_${Date.now().toString(36)}${(seq++).toString(36)}`;

// ---------------------------------------------------------------- consuming

const ms = (t) => (t === undefined || t === null ? null : typeof t === 'number' ? t : Date.parse(t));
const ts = (v) => (v === null ? null : new Date(v).toISOString());

function values(rows, width) {
  const params = [];
  const tuples = rows.map((row) => {
    const start = params.length;
    params.push(...row);
    return '(' + Array.from({ length: width }, (_, i) => `$${start + i + 1}`).join(',') + ')';
  });
  return { sql: tuples.join(','), params };
}

async function writeBatch(records) {
  // Last write of a key wins; one INSERT … ON CONFLICT may not touch a row twice.
  const traceRows = new Map();
  const spanRows = new Map();
  for (const { projectId, trace, now } of records) {
    const spans = Array.isArray(trace.spans) ? trace.spans : [];
    let errorCount = 0;
    let earliest = null;
    for (const span of spans) {
      const start = ms(span.startTime);
      if (earliest === null || start < earliest) earliest = start;
      if (span.status === 'error') errorCount++;
      spanRows.set(`${projectId}\u0000${trace.id}\u0000${span.id}`, [projectId, trace.id, span.id, ts(start), JSON.stringify(span)]);
    }
    traceRows.set(`${projectId}\u0000${trace.id}`, [
      projectId,
      trace.id,
      trace.name ?? null,
      trace.status || (trace.endTime ? 'ok' : 'running'),
      ts(ms(trace.startTime) ?? earliest ?? now),
      ts(ms(trace.endTime)),
      spans.length,
      errorCount,
      trace.userId ?? null,
      trace.sessionId ?? null,
      JSON.stringify(trace.tags || []),
      JSON.stringify(trace.metadata || {}),
      trace.input === undefined ? null : JSON.stringify(trace.input),
      trace.output === undefined ? null : JSON.stringify(trace.output),
    ]);
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const traces = [...traceRows.values()];
    for (let i = 0; i < traces.length; i += 1000) {
      const v = values(traces.slice(i, i + 1000), 14);
      await client.query(
        `INSERT INTO traces (project_id, id, name, status, start_time, end_time, span_count, error_count, user_id,
           session_id, tags, metadata, input, output) VALUES ${v.sql}
         ON CONFLICT (project_id, id) DO UPDATE SET name = excluded.name, status = excluded.status,
           start_time = excluded.start_time, end_time = excluded.end_time, span_count = excluded.span_count,
           error_count = excluded.error_count, user_id = excluded.user_id, session_id = excluded.session_id,
           tags = excluded.tags, metadata = excluded.metadata, input = excluded.input, output = excluded.output,
           updated_at = now()`,
        v.params,
      );
    }
    const spans = [...spanRows.values()];
    for (let i = 0; i < spans.length; i += 2000) {
      const v = values(spans.slice(i, i + 2000), 5);
      await client.query(
        `INSERT INTO spans (project_id, trace_id, id, start_time, data) VALUES ${v.sql}
         ON CONFLICT (project_id, trace_id, id) DO UPDATE SET start_time = excluded.start_time, data = excluded.data`,
        v.params,
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

// A bulk load outruns autovacuum's ANALYZE: with the statistics of an empty table the
// planner sorts the whole project instead of walking the index. Analyze as the table grows.
let sinceAnalyze = 0;
let analyzedAt = 0;
let analyzing = false;
function maybeAnalyze(n) {
  sinceAnalyze += n;
  if (analyzing || sinceAnalyze < Math.max(1000, analyzedAt / 2)) return;
  analyzing = true;
  analyzedAt += sinceAnalyze;
  sinceAnalyze = 0;
  pool
    .query('ANALYZE traces, spans')
    .catch(() => {})
    .finally(() => (analyzing = false));
}

// ---------------------------------------------------------------- reading

const SUMMARY = 'id, name, status, start_time, end_time, span_count, error_count, user_id, session_id, tags, metadata, created_at, updated_at';

const app = Fastify({ bodyLimit: 64 * 1024 * 1024 });
const project = (req) => String(req.headers['x-project-key'] || 'default');
const unavailable = (reply, err) => reply.code(503).header('retry-after', '1').send({ code: 'unavailable', detail: err.message });

for (const prefix of ['/api/v1', '']) {
  app.post(`${prefix}/traces`, async (req, reply) => {
    const trace = req.body;
    if (!trace.id) trace.id = newId();
    const spanCount = Array.isArray(trace.spans) ? trace.spans.length : 0;
    try {
      await produce({ key: trace.id, value: JSON.stringify({ projectId: project(req), trace, now: Date.now() }) });
    } catch (err) {
      return unavailable(reply, err);
    }
    return reply
      .code(202)
      .header('location', `/api/v1/traces/${trace.id}`)
      .send({ id: trace.id, status: trace.status || (trace.endTime ? 'ok' : 'running'), spanCount });
  });
  app.post(`${prefix}/traces/batch`, async (req, reply) => {
    const projectId = project(req);
    const now = Date.now();
    const traces = req.body.traces;
    for (const t of traces) if (!t.id) t.id = newId();
    try {
      await Promise.all(traces.map((trace) => produce({ key: trace.id, value: JSON.stringify({ projectId, trace, now }) })));
    } catch (err) {
      return unavailable(reply, err);
    }
    return reply.code(207).send({
      accepted: traces.length,
      rejected: 0,
      items: traces.map((t, index) => ({ index, id: t.id, result: 'accepted' })),
    });
  });
  app.get(`${prefix}/traces/:id`, async (req, reply) => {
    const projectId = project(req);
    const [traceRes, spanRes] = await Promise.all([
      pool.query('SELECT * FROM traces WHERE project_id = $1 AND id = $2', [projectId, req.params.id]),
      pool.query('SELECT data FROM spans WHERE project_id = $1 AND trace_id = $2 ORDER BY start_time, id', [projectId, req.params.id]),
    ]);
    const row = traceRes.rows[0];
    if (!row) return reply.code(404).send({ code: 'not_found' });
    const spans = spanRes.rows.map((s) => JSON.parse(s.data));
    const byId = new Map(spans.map((s) => [s.id, s]));
    const depthOf = new Map();
    const depth = (s) => {
      if (depthOf.has(s.id)) return depthOf.get(s.id);
      const parent = s.parentId ? byId.get(s.parentId) : null;
      const d = parent ? depth(parent) + 1 : 0;
      depthOf.set(s.id, d);
      return d;
    };
    for (const s of spans) {
      s.durationMs = s.endTime ? ms(s.endTime) - ms(s.startTime) : null;
      s.depth = depth(s);
    }
    return {
      ...traceSummary(row, projectId),
      input: row.input === null ? null : JSON.parse(row.input),
      output: row.output === null ? null : JSON.parse(row.output),
      spans,
    };
  });
  app.get(`${prefix}/traces`, async (req) => {
    const projectId = project(req);
    const limit = Math.min(200, Math.max(1, Number(req.query.limit) || 50));
    let res;
    if (req.query.cursor) {
      const [start, id] = JSON.parse(Buffer.from(req.query.cursor, 'base64url').toString());
      res = await pool.query(
        `SELECT ${SUMMARY} FROM traces WHERE project_id = $1 AND (start_time, id) < ($2::timestamptz, $3)
         ORDER BY start_time DESC, id DESC LIMIT $4`,
        [projectId, start, id, limit + 1],
      );
    } else {
      res = await pool.query(`SELECT ${SUMMARY} FROM traces WHERE project_id = $1 ORDER BY start_time DESC, id DESC LIMIT $2`, [projectId, limit + 1]);
    }
    const rows = res.rows;
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    return {
      data: rows.map((r) => traceSummary(r, projectId)),
      // Microsecond precision is kept as text so the keyset comparison is exact.
      nextCursor: more ? Buffer.from(JSON.stringify([last.start_time.toISOString(), last.id])).toString('base64url') : null,
    };
  });
}
app.get('/readyz', async (req, reply) => (ready ? { status: 'ok' } : reply.code(503).send({ status: 'starting' })));

let ready = false;
async function main() {
  await pool.query(SCHEMA);
  // Created on purpose, as the service creates its topics (brokers need not auto-create them).
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: partitions, configEntries: [{ name: 'max.message.bytes', value: String(16 * 1024 * 1024) }] }],
  });
  await admin.disconnect();
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: 4,
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      const records = [];
      for (const m of batch.messages) {
        const value = JSON.parse(m.value.toString());
        if (value.trace) records.push(value);
      }
      const t0 = Date.now();
      if (records.length) await writeBatch(records);
      storedMore(records.length);
      maybeAnalyze(records.length);
      if (debug) console.error(`batch p${batch.partition} ${records.length} traces in ${Date.now() - t0} ms (lag ${batch.offsetLag()})`);
    },
  });
  await app.listen({ port, host });
  ready = true;
  console.log(`baseline-kafka-pg listening on http://${host}:${port} (topic ${topic})`);
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.once(sig, async () => {
    const hard = setTimeout(() => process.exit(0), 5000);
    hard.unref();
    await app.close().catch(() => {});
    await consumer.disconnect().catch(() => {});
    await producer.disconnect().catch(() => {});
    await pool.end().catch(() => {});
    process.exit(0);
  });
}
