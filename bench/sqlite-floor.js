#!/usr/bin/env node
'use strict';
// What SQLite alone costs the all-in-one batch ingest, with nothing else timed: bench:read's
// seed traces (one span each, 100 users, a tag), built into rows beforehand, then stored in
// batches, one transaction each, (a) as the bare baseline stores them (its schema and
// statements, bench/baseline-sqlite.js) and (b) as trace-ingest stores them (its store opened
// as the service opens it, its rows from its own merge and row code, its multi-row statements
// through its own helpers and transactions), and (c) the same without the user index; and
// (d) the baseline keeping the list filters' indexes and tag rows as the service does
// (bench/baseline-sqlite.js's BASELINE_SERVICE_INDEXES=1). Only the
// statements and the commit are timed (the service's WAL checkpoints run on their own thread,
// as in the service; the baseline's in its commits), so (b) is the
// least any all-in-one batch can cost with this schema, whatever the layers above it do: the
// service's batch ratio against the baseline can be no better than the baseline's whole time
// per trace (bench:read's seeding rate) over (b). Build first.
// Usage: node bench/sqlite-floor.js [--traces 1000000] [--batch 1000] [--rounds 1]
const fs = require('node:fs');
const path = require('node:path');
const c = require('./lib/common');
const { openBaselineStore } = require('./lib/baseline-sqlite-store');
const { seedTrace } = require('./lib/seed-trace');
const { traceIngestMigrations } = require('../apps/trace-ingest/dist/migrations');
const { TRACE_TABLE, SPAN_TABLE, TAG_TABLE, traceToRow, spanToRow } = require('../apps/trace-ingest/dist/store/trace-rows');
const { insertAbsentStatements, upsertStatements } = require('../apps/trace-ingest/dist/store/sql-builder');
const { validateTrace, mergeTrace } = require('../libs/traces/dist');
const { inTransaction, openServiceDataSource, runStatement, selectArrays } = require('../libs/persistence/dist');

const opts = c.parseArgs(process.argv.slice(2), { traces: 1_000_000, batch: 1000, rounds: 1 });
const log = (...a) => console.error(...a);
const PROJECT = 'prj_floor';

/**
 * trace-ingest's store as the service opens it (its migrations, pragmas and checkpoint thread),
 * written through its own statement helpers and transactions.
 */
async function serviceStore(dir, withUserIndex) {
  const file = path.join(dir, `trace-ingest-${withUserIndex ? 'all' : 'no-user'}.sqlite`);
  const dataSource = await openServiceDataSource({ target: { kind: 'sqlite', file }, entities: [], migrations: traceIngestMigrations });
  if (!withUserIndex) await dataSource.query('DROP INDEX traces_project_user_start');
  return {
    close: () => dataSource.destroy(),
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
      return inTransaction(dataSource, async (manager) => {
        for (const { sql, params, reader } of statements) await (reader ? selectArrays : runStatement)(manager, sql, params);
      });
    },
  };
}

/** bench/baseline-sqlite.js's store: the bare one, or (`serviceIndexes`) the one keeping the list filters' indexes and tag rows. */
function baselineStore(dir, serviceIndexes = false) {
  const { db, rowsOf, storeRows } = openBaselineStore(path.join(dir, `baseline${serviceIndexes ? '-indexes' : ''}.sqlite`), { serviceIndexes });
  return {
    close: () => db.close(),
    prepare(traces) {
      const now = Date.now();
      return traces.map((t) => rowsOf(PROJECT, t, now));
    },
    store(rows) {
      db.exec('BEGIN');
      for (const row of rows) storeRows(row);
      db.exec('COMMIT');
    },
  };
}

/** Stores opts.traces traces in batches; answers the µs of statements and commits per trace. */
async function measure(store) {
  let timedNs = 0n;
  for (let from = 0; from < opts.traces; from += opts.batch) {
    const traces = [];
    for (let i = from; i < Math.min(opts.traces, from + opts.batch); i++) traces.push(seedTrace('floor', i));
    const prepared = store.prepare(traces);
    const t0 = process.hrtime.bigint();
    await store.store(prepared);
    timedNs += process.hrtime.bigint() - t0;
  }
  await store.close();
  return Number(timedNs) / 1000 / opts.traces;
}

async function main() {
  const rows = [];
  for (let round = 1; round <= opts.rounds; round++) {
    const dir = c.tempDir('cinetrace-sqlite-floor-');
    const figures = {};
    for (const [name, open] of [
      ['baseline', async () => baselineStore(dir)],
      ["baseline keeping the list filters' indexes", async () => baselineStore(dir, true)],
      ['service', () => serviceStore(dir, true)],
      ['service without the user index', () => serviceStore(dir, false)],
    ]) {
      figures[name] = await measure(await open());
      log(`round ${round}: ${name}: ${figures[name].toFixed(2)} µs of SQLite per trace (${Math.round(1e6 / figures[name])} traces/s)`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    rows.push(
      { figure: `round ${round}: µs of SQLite per trace`, service: figures.service, baseline: figures.baseline },
      { figure: `round ${round}: the same, no user index`, service: figures['service without the user index'], baseline: figures.baseline },
      { figure: `round ${round}: against the baseline keeping the same indexes`, service: figures.service, baseline: figures["baseline keeping the list filters' indexes"] },
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
