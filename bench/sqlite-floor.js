#!/usr/bin/env node
'use strict';
// What SQLite alone costs the all-in-one batch ingest, with nothing else timed: bench:read's
// seed traces (one span each, 100 users, a tag), built into rows beforehand, then stored in
// batches, one transaction each, (a) as the bare baseline stores them (its schema and
// statements, bench/baseline-sqlite.js) and (b) as trace-ingest stores them (its migrations'
// schema, its rows from its own merge and row code, its multi-row statements), and (c) the
// same without the user index. Only the statements and the commit are timed, so (b) is the
// least any all-in-one batch can cost with this schema, whatever the layers above it do: the
// service's batch ratio against the baseline can be no better than the baseline's whole time
// per trace (bench:read's seeding rate) over (b). Build first.
// Usage: node bench/sqlite-floor.js [--traces 1000000] [--batch 1000] [--rounds 1]
const fs = require('node:fs');
const path = require('node:path');
const Database = require('better-sqlite3');
const { DataSource } = require('typeorm');
const c = require('./lib/common');
const { traceIngestMigrations } = require('../apps/trace-ingest/dist/migrations');
const { TRACE_TABLE, SPAN_TABLE, TAG_TABLE, traceToRow, spanToRow } = require('../apps/trace-ingest/dist/store/trace-rows');
const { insertAbsentStatements, upsertStatements } = require('../apps/trace-ingest/dist/store/sql-builder');
const { validateTrace, mergeTrace } = require('../libs/traces/dist');

const opts = c.parseArgs(process.argv.slice(2), { traces: 1_000_000, batch: 1000, rounds: 1 });
const log = (...a) => console.error(...a);
const PROJECT = 'prj_floor';

/** bench/read.js's seed trace (one span). */
function seedTrace(i) {
  const start = Date.UTC(2026, 0, 1) + i * 1000;
  const iso = (ms) => new Date(ms).toISOString();
  return {
    id: `seed-floor-${i}`,
    name: 'render',
    status: 'ok',
    startTime: iso(start),
    endTime: iso(start + 500),
    metadata: { batch: Math.floor(i / 1000) },
    tags: ['seed'],
    userId: `user-${i % 100}`,
    spans: [
      {
        id: 's0',
        name: 'step 0',
        kind: 'llm',
        status: 'ok',
        startTime: iso(start),
        endTime: iso(start + 9),
        model: 'video-model-xl',
        usage: { inputTokens: 100, outputTokens: 20 },
        input: { prompt: 'a red kite over a grey sea, slow pan' },
      },
    ],
  };
}

const openAsTheServiceDoes = (file) => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
};

/** trace-ingest's schema, from its own migrations. */
async function serviceStore(dir, withUserIndex) {
  const file = path.join(dir, `trace-ingest-${withUserIndex ? 'all' : 'no-user'}.sqlite`);
  const dataSource = new DataSource({ type: 'better-sqlite3', database: file, migrations: traceIngestMigrations, logging: false });
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
  const db = openAsTheServiceDoes(file);
  if (!withUserIndex) db.exec('DROP INDEX traces_project_user_start');
  const statements = new Map();
  const run = ({ sql, params }, reader) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    if (reader) statement.raw(true).all(params);
    else statement.run(params);
  };
  return {
    db,
    /** Rows as trace-ingest's writer makes them for a batch of new traces (its merge, its row codecs). */
    prepare(traces) {
      const stored = traces.map((raw) => {
        const validated = validateTrace(raw);
        if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
        return mergeTrace(PROJECT, undefined, validated.trace, Date.now());
      });
      const traceRows = stored.map((m) => traceToRow(m.trace));
      const spanRows = [];
      const tagRows = [];
      for (const m of stored) {
        for (const tag of m.trace.tags) tagRows.push([PROJECT, tag, m.trace.id]);
        for (const span of m.changedSpans) spanRows.push(spanToRow(PROJECT, m.trace.id, span));
      }
      return [
        ...insertAbsentStatements('sqlite', TRACE_TABLE, traceRows).map((s) => ({ ...s, reader: true })),
        ...upsertStatements('sqlite', TAG_TABLE, tagRows),
        ...upsertStatements('sqlite', SPAN_TABLE, spanRows),
      ];
    },
    store(statements) {
      db.exec('BEGIN');
      for (const s of statements) run(s, s.reader);
      db.exec('COMMIT');
    },
  };
}

/** bench/baseline-sqlite.js's schema and statements (the bare one: no list-filter indexes or tag rows). */
function baselineStore(dir) {
  const db = openAsTheServiceDoes(path.join(dir, 'baseline.sqlite'));
  db.exec(`
    CREATE TABLE traces (
      project_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT, status TEXT NOT NULL,
      start_time INTEGER NOT NULL, end_time INTEGER, span_count INTEGER NOT NULL, error_count INTEGER NOT NULL,
      user_id TEXT, session_id TEXT, tags TEXT NOT NULL, metadata TEXT NOT NULL, input TEXT, output TEXT,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      PRIMARY KEY (project_id, id)
    ) WITHOUT ROWID;
    CREATE INDEX traces_by_start ON traces (project_id, start_time DESC, id DESC);
    CREATE TABLE spans (
      project_id TEXT NOT NULL, trace_id TEXT NOT NULL, id TEXT NOT NULL, start_time INTEGER NOT NULL, data TEXT NOT NULL,
      PRIMARY KEY (project_id, trace_id, id)
    ) WITHOUT ROWID;`);
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
  return {
    db,
    prepare(traces) {
      const now = Date.now();
      return traces.map((t) => ({
        spans: t.spans.map((s) => [PROJECT, t.id, s.id, Date.parse(s.startTime), JSON.stringify(s)]),
        trace: {
          projectId: PROJECT,
          id: t.id,
          name: t.name,
          status: t.status,
          startTime: Date.parse(t.startTime),
          endTime: Date.parse(t.endTime),
          spanCount: t.spans.length,
          errorCount: 0,
          userId: t.userId,
          sessionId: null,
          tags: JSON.stringify(t.tags),
          metadata: JSON.stringify(t.metadata),
          input: null,
          output: null,
          now,
        },
      }));
    },
    store(rows) {
      db.exec('BEGIN');
      for (const { spans, trace } of rows) {
        for (const span of spans) upsertSpan.run(...span);
        upsertTrace.run(trace);
      }
      db.exec('COMMIT');
    },
  };
}

/** Stores opts.traces traces in batches; answers the µs of statements and commits per trace. */
function measure(store) {
  let timedNs = 0n;
  for (let from = 0; from < opts.traces; from += opts.batch) {
    const traces = [];
    for (let i = from; i < Math.min(opts.traces, from + opts.batch); i++) traces.push(seedTrace(i));
    const prepared = store.prepare(traces);
    const t0 = process.hrtime.bigint();
    store.store(prepared);
    timedNs += process.hrtime.bigint() - t0;
  }
  store.db.close();
  return Number(timedNs) / 1000 / opts.traces;
}

async function main() {
  const rows = [];
  for (let round = 1; round <= opts.rounds; round++) {
    const dir = c.tempDir('cinetrace-sqlite-floor-');
    const figures = {};
    for (const [name, open] of [
      ['baseline', async () => baselineStore(dir)],
      ['service', () => serviceStore(dir, true)],
      ['service without the user index', () => serviceStore(dir, false)],
    ]) {
      figures[name] = measure(await open());
      log(`round ${round}: ${name}: ${figures[name].toFixed(2)} µs of SQLite per trace (${Math.round(1e6 / figures[name])} traces/s)`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    rows.push(
      { figure: `round ${round}: µs of SQLite per trace`, service: figures.service, baseline: figures.baseline },
      { figure: `round ${round}: the same, no user index`, service: figures['service without the user index'], baseline: figures.baseline },
    );
  }
  c.printTable(`SQLite alone, ${opts.traces} one-span traces in batches of ${opts.batch} (service / baseline: how many times the baseline's cost)`, rows);
}

main()
  .catch((e) => {
    console.error(`failed: ${e.stack || e.message}`);
    process.exitCode = 1;
  })
  .finally(() => c.cleanupAll());
