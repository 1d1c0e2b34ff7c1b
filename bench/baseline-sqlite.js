#!/usr/bin/env node
'use strict';
// The all-in-one baseline: bare Fastify + better-sqlite3 doing the work of trace ingest
// without validation, authentication, a bus or a framework. POST stores the trace row and
// its span rows (JSON text columns) in one transaction per request and answers 202; the
// batch stores up to 1000 traces in one transaction; GET by id and the keyset list read
// them back. The project is the X-Project-Key header (no lookup).
// Env: PORT (3100), HOST (127.0.0.1), DATA_DIR (./bench-data): the SQLite file lives there.
// --group-commit (or BASELINE_GROUP_COMMIT=1): POSTs that arrive together are stored in one
// transaction (each answered once it commits), the most this design can get from SQLite on
// a machine; without it, one transaction per POST.
// BASELINE_SERVICE_INDEXES=1: also keeps what the service keeps for the list's filters (API.md:
// name, userId, sessionId, tags): the traces' indexes by name, user and session, and a row per
// tag. Not the default (the figures' baseline stays the bare one); for telling how much of a gap
// is that work rather than the service's layers.
const fs = require('node:fs');
const path = require('node:path');
const Fastify = require('fastify');
const { traceSummary } = require('./lib/trace-summary');
const { openBaselineStore, ms } = require('./lib/baseline-sqlite-store');

const port = Number(process.env.PORT || 3100);
const host = process.env.HOST || '127.0.0.1';
const dataDir = process.env.DATA_DIR || './bench-data';
fs.mkdirSync(dataDir, { recursive: true });

const serviceIndexes = process.env.BASELINE_SERVICE_INDEXES === '1';
const { db, store } = openBaselineStore(path.join(dataDir, 'baseline.sqlite'), { serviceIndexes });
const getTrace = db.prepare('SELECT * FROM traces WHERE project_id = ? AND id = ?');
const getSpans = db.prepare('SELECT data FROM spans WHERE project_id = ? AND trace_id = ? ORDER BY start_time, id');
const SUMMARY = 'id, name, status, start_time, end_time, span_count, error_count, user_id, session_id, tags, metadata, created_at, updated_at';
const listFirst = db.prepare(`SELECT ${SUMMARY} FROM traces WHERE project_id = ? ORDER BY start_time DESC, id DESC LIMIT ?`);
const listAfter = db.prepare(`SELECT ${SUMMARY} FROM traces WHERE project_id = ? AND (start_time, id) < (?, ?)
  ORDER BY start_time DESC, id DESC LIMIT ?`);

const storeOne = db.transaction(store);
const storeMany = db.transaction((projectId, traces, now) => traces.map((t) => store(projectId, t, now)));

const groupCommit = process.argv.includes('--group-commit') || process.env.BASELINE_GROUP_COMMIT === '1';
const GROUP_MAX = 1000;
let group = [];

/** Group commit: the POSTs of one turn of the event loop share a transaction, then each gets its answer. */
function storeInGroup(projectId, trace, reply) {
  group.push({ projectId, trace, reply });
  if (group.length === 1) setImmediate(commitGroup);
  else if (group.length >= GROUP_MAX) commitGroup();
}
const storeGroup = db.transaction((items, now) => items.map((item) => store(item.projectId, item.trace, now)));
function commitGroup() {
  const items = group;
  if (!items.length) return;
  group = [];
  let results;
  try {
    results = storeGroup(items, Date.now());
  } catch (err) {
    for (const { reply } of items) reply.code(500).send({ code: 'internal', detail: String(err) });
    return;
  }
  items.forEach(({ reply }, i) => answerAccepted(reply, results[i]));
}

const answerAccepted = (reply, result) => reply.code(202).header('location', `/api/v1/traces/${result.id}`).send(result);

const app = Fastify({ bodyLimit: 64 * 1024 * 1024 });
const project = (req) => String(req.headers['x-project-key'] || 'default');

for (const prefix of ['/api/v1', '']) {
  app.post(`${prefix}/traces`, (req, reply) => {
    if (groupCommit) return storeInGroup(project(req), req.body, reply);
    answerAccepted(reply, storeOne(project(req), req.body, Date.now()));
  });
  app.post(`${prefix}/traces/batch`, (req, reply) => {
    const results = storeMany(project(req), req.body.traces, Date.now());
    reply.code(207).send({
      accepted: results.length,
      rejected: 0,
      items: results.map((r, index) => ({ index, id: r.id, result: 'accepted' })),
    });
  });
  app.get(`${prefix}/traces/:id`, (req, reply) => {
    const projectId = project(req);
    const row = getTrace.get(projectId, req.params.id);
    if (!row) return reply.code(404).send({ code: 'not_found' });
    const spans = getSpans.all(projectId, row.id).map((s) => JSON.parse(s.data));
    const depthOf = new Map();
    const byId = new Map(spans.map((s) => [s.id, s]));
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
    reply.send({
      ...traceSummary(row, projectId),
      input: row.input === null ? null : JSON.parse(row.input),
      output: row.output === null ? null : JSON.parse(row.output),
      spans,
    });
  });
  app.get(`${prefix}/traces`, (req, reply) => {
    const projectId = project(req);
    const limit = Math.min(200, Math.max(1, Number(req.query.limit) || 50));
    let rows;
    if (req.query.cursor) {
      const [start, id] = JSON.parse(Buffer.from(req.query.cursor, 'base64url').toString());
      rows = listAfter.all(projectId, start, id, limit + 1);
    } else rows = listFirst.all(projectId, limit + 1);
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    reply.send({
      data: rows.map((r) => traceSummary(r, projectId)),
      nextCursor: more ? Buffer.from(JSON.stringify([last.start_time, last.id])).toString('base64url') : null,
    });
  });
}
app.get('/readyz', (req, reply) => reply.send({ status: 'ok' }));

app.listen({ port, host }).then(
  () => console.log(`baseline-sqlite listening on http://${host}:${port} (${dataDir})${groupCommit ? ', group commit' : ''}`),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.once(sig, async () => {
    await app.close();
    db.close();
    process.exit(0);
  });
}
