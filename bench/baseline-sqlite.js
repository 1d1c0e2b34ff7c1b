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
const Database = require('better-sqlite3');

const port = Number(process.env.PORT || 3100);
const host = process.env.HOST || '127.0.0.1';
const dataDir = process.env.DATA_DIR || './bench-data';
fs.mkdirSync(dataDir, { recursive: true });

const db = new Database(path.join(dataDir, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.exec(`
  CREATE TABLE IF NOT EXISTS traces (
    project_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT, status TEXT NOT NULL,
    start_time INTEGER NOT NULL, end_time INTEGER, span_count INTEGER NOT NULL, error_count INTEGER NOT NULL,
    user_id TEXT, session_id TEXT, tags TEXT NOT NULL, metadata TEXT NOT NULL, input TEXT, output TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS traces_by_start ON traces (project_id, start_time DESC, id DESC);
  CREATE TABLE IF NOT EXISTS spans (
    project_id TEXT NOT NULL, trace_id TEXT NOT NULL, id TEXT NOT NULL, start_time INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (project_id, trace_id, id)
  ) WITHOUT ROWID;
`);

const serviceIndexes = process.env.BASELINE_SERVICE_INDEXES === '1';
if (serviceIndexes) {
  db.exec(`
    CREATE INDEX IF NOT EXISTS traces_by_name ON traces (project_id, name, start_time, id);
    CREATE INDEX IF NOT EXISTS traces_by_user ON traces (project_id, user_id, start_time, id) WHERE user_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS traces_by_session ON traces (project_id, session_id, start_time, id) WHERE session_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS trace_tags (project_id TEXT NOT NULL, tag TEXT NOT NULL, trace_id TEXT NOT NULL, PRIMARY KEY (project_id, tag, trace_id)) WITHOUT ROWID;
  `);
}
const insertTag = serviceIndexes ? db.prepare('INSERT INTO trace_tags (project_id, tag, trace_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING') : null;

const upsertTrace = db.prepare(`
  INSERT INTO traces (project_id, id, name, status, start_time, end_time, span_count, error_count, user_id, session_id,
                      tags, metadata, input, output, created_at, updated_at)
  VALUES (@projectId, @id, @name, @status, @startTime, @endTime, @spanCount, @errorCount, @userId, @sessionId,
          @tags, @metadata, @input, @output, @now, @now)
  ON CONFLICT (project_id, id) DO UPDATE SET name = excluded.name, status = excluded.status,
    start_time = excluded.start_time, end_time = excluded.end_time, span_count = excluded.span_count,
    error_count = excluded.error_count, user_id = excluded.user_id, session_id = excluded.session_id,
    tags = excluded.tags, metadata = excluded.metadata, input = excluded.input, output = excluded.output,
    updated_at = excluded.updated_at`);
const upsertSpan = db.prepare(`
  INSERT INTO spans (project_id, trace_id, id, start_time, data) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (project_id, trace_id, id) DO UPDATE SET start_time = excluded.start_time, data = excluded.data`);
const getTrace = db.prepare('SELECT * FROM traces WHERE project_id = ? AND id = ?');
const getSpans = db.prepare('SELECT data FROM spans WHERE project_id = ? AND trace_id = ? ORDER BY start_time, id');
const SUMMARY = 'id, name, status, start_time, end_time, span_count, error_count, user_id, session_id, tags, metadata, created_at, updated_at';
const listFirst = db.prepare(`SELECT ${SUMMARY} FROM traces WHERE project_id = ? ORDER BY start_time DESC, id DESC LIMIT ?`);
const listAfter = db.prepare(`SELECT ${SUMMARY} FROM traces WHERE project_id = ? AND (start_time, id) < (?, ?)
  ORDER BY start_time DESC, id DESC LIMIT ?`);

const ms = (t) => (t === undefined || t === null ? null : typeof t === 'number' ? t : Date.parse(t));
let seq = 0;

function store(projectId, trace, now) {
  const id = trace.id || `tr_${now.toString(36)}${(seq++).toString(36)}`;
  const spans = Array.isArray(trace.spans) ? trace.spans : [];
  let errorCount = 0;
  let earliest = null;
  for (const span of spans) {
    const start = ms(span.startTime);
    if (earliest === null || start < earliest) earliest = start;
    if (span.status === 'error') errorCount++;
    upsertSpan.run(projectId, id, span.id, start, JSON.stringify(span));
  }
  if (insertTag) for (const tag of trace.tags || []) insertTag.run(projectId, tag, id);
  const status = trace.status || (trace.endTime ? 'ok' : 'running');
  upsertTrace.run({
    projectId,
    id,
    name: trace.name ?? null,
    status,
    startTime: ms(trace.startTime) ?? earliest ?? now,
    endTime: ms(trace.endTime),
    spanCount: spans.length,
    errorCount,
    userId: trace.userId ?? null,
    sessionId: trace.sessionId ?? null,
    tags: JSON.stringify(trace.tags || []),
    metadata: JSON.stringify(trace.metadata || {}),
    input: trace.input === undefined ? null : JSON.stringify(trace.input),
    output: trace.output === undefined ? null : JSON.stringify(trace.output),
    now,
  });
  return { id, status, spanCount: spans.length };
}
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
